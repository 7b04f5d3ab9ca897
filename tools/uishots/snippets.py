"""What the screenshots show: code in four languages, chat messages, settings labels and article
prose, written for this set. A seed picks among them; the text is the truth."""

from __future__ import annotations

PYTHON = (
    '''def moving_average(values, window=3):
    if window <= 0:
        raise ValueError("window must be positive")
    out = []
    for i in range(len(values) - window + 1):
        chunk = values[i:i + window]
        out.append(sum(chunk) / window)
    return out''',
    '''import json
from pathlib import Path


class Inventory:
    def __init__(self, path):
        self.path = Path(path)
        self.items = {}

    def load(self):
        with self.path.open() as handle:
            self.items = json.load(handle)
        return len(self.items)''',
    '''def parse_pairs(text):
    result = {}
    for line in text.splitlines():
        if "=" not in line:
            continue
        key, value = line.split("=", 1)
        result[key.strip()] = value.strip()
    return result''',
)

JAVASCRIPT = (
    '''function debounce(fn, delay) {
  let timer = null;
  return function (...args) {
    clearTimeout(timer);
    timer = setTimeout(() => fn.apply(this, args), delay);
  };
}''',
    '''const totals = orders.reduce((acc, order) => {
  const key = order.customer;
  acc[key] = (acc[key] || 0) + order.amount;
  return acc;
}, {});

console.log(Object.keys(totals).length);''',
    '''async function fetchUser(id) {
  const response = await fetch(`/api/users/${id}`);
  if (!response.ok) {
    throw new Error("request failed: " + response.status);
  }
  return response.json();
}''',
)

C = (
    '''#include <stdio.h>

int main(void) {
    int sum = 0;
    for (int i = 1; i <= 10; i++) {
        sum += i * i;
    }
    printf("%d\\n", sum);
    return 0;
}''',
    '''#include <string.h>

size_t count_char(const char *s, char c) {
    size_t n = 0;
    while (*s) {
        if (*s++ == c) {
            n++;
        }
    }
    return n;
}''',
    '''#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

struct node *push(struct node *head, int value) {
    struct node *n = malloc(sizeof *n);
    n->value = value;
    n->next = head;
    return n;
}''',
)

SHELL = (
    '''$ mkdir -p build && cd build
$ cmake .. -DCMAKE_BUILD_TYPE=Release
-- The C compiler identification is GNU 12.2.0
-- Configuring done
-- Generating done
$ make -j4
[100%] Built target scanner''',
    '''$ ls -l data
total 12
-rw-r--r-- 1 ana staff 2048 Mar 3 10:15 input.csv
-rw-r--r-- 1 ana staff 4096 Mar 3 10:17 notes.txt
$ wc -l data/input.csv
41 data/input.csv
$ grep -c error logs/run.log
3''',
    '''$ git status --short
 M src/reader.py
?? tests/test_reader.py
$ git add src/reader.py tests/test_reader.py
$ git commit -m "Read empty files as no rows"
[main 4f2a9c1] Read empty files as no rows
 2 files changed, 31 insertions(+), 2 deletions(-)''',
)

CODE = {"python": PYTHON, "javascript": JAVASCRIPT, "c": C, "shell": SHELL}
"""Language -> snippets. The hint the engine should give: python, javascript, c, none for shell
sessions (a prompt is no language)."""

PEOPLE = ("Mira Okafor", "Tomas Lind", "Priya Raman", "Jonas Weber", "Elena Costa", "Sam Whitfield")

MESSAGES = (
    "Morning! Did the nightly build pass?",
    "It did, but the upload step took twice as long",
    "Probably the new image sizes",
    "I can look at it after lunch",
    "Thanks, no rush",
    "The client moved the review to Thursday",
    "Works for me",
    "Can someone share the slides from Monday?",
    "Sent them to the channel just now",
    "Great, got them",
    "Who is on call this weekend?",
    "Me, until Sunday evening",
)

SETTINGS = (
    ("Appearance", (("Theme", "System default"), ("Font size", "Medium"),
                    ("Show line numbers", "On"))),
    ("Notifications", (("Email alerts", "Daily summary"), ("Desktop banners", "Off"),
                       ("Sound", "Chime"))),
    ("Privacy", (("Share usage data", "Off"), ("Clear history on exit", "On"))),
    ("Storage", (("Cache size", "512 MB"), ("Download folder", "Documents"))),
)

ARTICLES = (
    ("Keeping a small garden through the winter",
     (("Choosing what to keep", "Not every plant is worth the effort of a winter indoors. "
       "Herbs such as rosemary and thyme take the move well, while basil rarely lasts past "
       "the first cold weeks."),
      ("Light and water", "A south window gives most plants enough light. Water less than in "
       "summer, and let the soil dry between waterings so the roots do not rot.")),
     ),
    ("How the old harbour got its lighthouse",
     (("A dangerous entrance", "Ships coming in at night had to find a narrow gap between two "
       "sandbanks. After three wrecks in one autumn, the town council asked for a light."),
      ("Building the tower", "The stone came from a quarry up the river and was carried down "
       "on flat boats. The tower took four summers to finish and first shone in spring.")),
     ),
)
