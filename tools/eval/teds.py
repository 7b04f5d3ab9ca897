"""Tree-edit-distance similarity (TEDS) between tables, via the Zhang-Shasha algorithm."""

from __future__ import annotations

from dataclasses import dataclass, field

from tools.eval.edit_distance import levenshtein
from tools.eval.tables import SourceTable, html_tables, pipe_tables


@dataclass
class TableNode:
    """A node of the table tree: table, thead/tbody/tfoot, tr or td (th counts as td)."""

    tag: str
    text: str = ""
    rowspan: int = 1
    colspan: int = 1
    children: list[TableNode] = field(default_factory=list)


def table_tree(table: SourceTable) -> TableNode:
    """The TEDS tree of a table: table -> sections -> tr -> td, cell text on the td nodes."""
    root = TableNode("table")
    for section in table.sections:
        section_node = TableNode(section.tag)
        for row in section.rows:
            row_node = TableNode("tr")
            for cell in row:
                row_node.children.append(TableNode("td", cell.text, cell.rowspan, cell.colspan))
            section_node.children.append(row_node)
        root.children.append(section_node)
    return root


@dataclass(frozen=True)
class _PostorderTree:
    """A tree flattened for Zhang-Shasha: nodes in postorder, leftmost leaf of each, keyroots."""

    nodes: list[TableNode]
    leftmost: list[int]
    keyroots: list[int]


def _flatten(root: TableNode) -> _PostorderTree:
    nodes: list[TableNode] = []
    leftmost: list[int] = []

    def visit(node: TableNode) -> int:
        first_leaf = None
        for child in node.children:
            child_leaf = visit(child)
            if first_leaf is None:
                first_leaf = child_leaf
        index = len(nodes)
        nodes.append(node)
        leftmost.append(index if first_leaf is None else first_leaf)
        return leftmost[index]

    visit(root)
    # A keyroot is the highest node among those sharing a leftmost leaf.
    highest: dict[int, int] = {}
    for index, leaf in enumerate(leftmost):
        highest[leaf] = index
    return _PostorderTree(nodes, leftmost, sorted(highest.values()))


def _rename_costs(a: list[TableNode], b: list[TableNode], with_text: bool) -> list[list[float]]:
    """Cost of relabelling each node of `a` as each node of `b`, as TEDS defines it.

    Different tags, or cells with different spans, cost 1. Two cells with equal spans cost
    their normalised text edit distance (0 when only structure is compared).
    """
    text_cost: dict[tuple[str, str], float] = {}
    costs = []
    for node_a in a:
        row = []
        for node_b in b:
            if node_a.tag != node_b.tag:
                row.append(1.0)
            elif node_a.tag != "td":
                row.append(0.0)
            elif (node_a.rowspan, node_a.colspan) != (node_b.rowspan, node_b.colspan):
                row.append(1.0)
            elif not with_text or node_a.text == node_b.text:
                row.append(0.0)
            else:
                key = (node_a.text, node_b.text)
                if key not in text_cost:
                    longest = max(len(node_a.text), len(node_b.text))
                    text_cost[key] = levenshtein(node_a.text, node_b.text) / longest
                row.append(text_cost[key])
        costs.append(row)
    return costs


def tree_edit_distance(a: TableNode, b: TableNode, with_text: bool = True) -> float:
    """Zhang-Shasha ordered tree edit distance; insert and delete cost 1 per node."""
    tree_a, tree_b = _flatten(a), _flatten(b)
    rename = _rename_costs(tree_a.nodes, tree_b.nodes, with_text)
    left_a, left_b = tree_a.leftmost, tree_b.leftmost
    tree_dist = [[0.0] * len(tree_b.nodes) for _ in tree_a.nodes]
    for key_a in tree_a.keyroots:
        first_a = left_a[key_a]
        rows = key_a - first_a + 2
        for key_b in tree_b.keyroots:
            first_b = left_b[key_b]
            cols = key_b - first_b + 2
            forest = [[0.0] * cols for _ in range(rows)]
            for x in range(1, rows):
                forest[x][0] = float(x)
            for y in range(1, cols):
                forest[0][y] = float(y)
            for x in range(1, rows):
                node_a = first_a + x - 1
                node_a_left = left_a[node_a]
                forest_prev, forest_row = forest[x - 1], forest[x]
                rename_row, dist_row = rename[node_a], tree_dist[node_a]
                for y in range(1, cols):
                    node_b = first_b + y - 1
                    delete = forest_prev[y] + 1.0
                    insert = forest_row[y - 1] + 1.0
                    if node_a_left == first_a and left_b[node_b] == first_b:
                        best = min(delete, insert, forest_prev[y - 1] + rename_row[node_b])
                        dist_row[node_b] = best
                    else:
                        subtree = forest[node_a_left - first_a][left_b[node_b] - first_b]
                        best = min(delete, insert, subtree + dist_row[node_b])
                    forest_row[y] = best
    return tree_dist[-1][-1]


def _count_nodes(node: TableNode) -> int:
    return 1 + sum(_count_nodes(child) for child in node.children)


def _first_table(text: str) -> SourceTable | None:
    """The first HTML table in `text`, else its first pipe table."""
    tables = html_tables(text) or pipe_tables(text)
    return tables[0] if tables else None


def _teds(pred: str, truth: str, with_text: bool) -> float:
    pred_table, truth_table = _first_table(pred), _first_table(truth)
    if pred_table is None and truth_table is None:
        return 1.0
    if pred_table is None or truth_table is None:
        return 0.0
    pred_tree, truth_tree = table_tree(pred_table), table_tree(truth_table)
    largest = max(_count_nodes(pred_tree), _count_nodes(truth_tree))
    return 1.0 - tree_edit_distance(pred_tree, truth_tree, with_text) / largest


def teds(pred_html: str, truth_html: str) -> float:
    """TEDS between the first table of each input (HTML, or a GFM pipe table as fallback).

    1 - tree edit distance / nodes of the larger tree. Cell text is compared by normalised
    character edit distance; inline markup inside cells (`<b>`) is ignored. 1.0 when neither
    input has a table, 0.0 when only one has.
    """
    return _teds(pred_html, truth_html, with_text=True)


def teds_structure(pred_html: str, truth_html: str) -> float:
    """TEDS on structure only: tags and spans, cell text ignored."""
    return _teds(pred_html, truth_html, with_text=False)
