"""Entry point for `python -m tools.eval` (the dev set) and `python -m tools.eval formula`."""

import sys

if sys.argv[1:2] == ["formula"]:
    from tools.eval.formula_eval import main as formula_main

    sys.exit(formula_main(sys.argv[2:]))

from tools.eval.runner import main

sys.exit(main())
