"""Bipartite matching with capacities, for the sampler's tests (private).

Left nodes supply units (``capacity``), right nodes take them (``need``),
along ``edges``: each left node's list of the right nodes it may serve.
"""

from __future__ import annotations


def matched(edges: list[list[int]], capacity: list[int], need: list[int]) -> int:
    """The most units a bipartite graph carries from the left (``capacity``) to the right."""
    return _flow(edges, capacity, need)[0]


def contested(edges: list[list[int]], slots: list[int]) -> list[int]:
    """The left nodes, one unit each, that compete for the slots some of them find none of.

    Empty when every left node finds a slot. Else: the nodes a largest
    matching leaves out, and every node that an alternating path reaches
    from them (from a node to any slot it may take, from a full slot to the
    nodes it holds). Together they need more than the slots they may take
    (a set Hall's theorem names), so a change that lets every node fit must
    move one of them; where the nodes left out cannot move, the others can.

    >>> contested([[0], [0], [0, 1]], [1, 1])
    [0, 1]
    >>> contested([[0], [0], [1]], [1, 1])
    [0, 1]
    >>> contested([[0], [1]], [1, 1])
    []
    """
    _, left, flow = _flow(edges, [1] * len(edges), slots)
    holders: dict[int, list[int]] = {}
    for node, row in enumerate(flow):
        for right, units in enumerate(row):
            if units:
                holders.setdefault(right, []).append(node)
    found = {node for node, rest in enumerate(left) if rest}
    reached: set[int] = set()
    stack = list(found)
    while stack:
        for right in edges[stack.pop()]:
            if right not in reached:
                reached.add(right)
                for other in holders.get(right, ()):
                    if other not in found:
                        found.add(other)
                        stack.append(other)
    return sorted(found)


def assigned(edges: list[list[int]], slots: list[int]) -> list[int]:
    """For each left node (one unit each), where a largest matching sends it; -1 for nowhere.

    >>> assigned([[0, 1], [0]], [1, 1])
    [1, 0]
    """
    flow = _flow(edges, [1] * len(edges), slots)[2]
    return [next((right for right, units in enumerate(row) if units), -1) for row in flow]


def _flow(
    edges: list[list[int]], capacity: list[int], need: list[int]
) -> tuple[int, list[int], list[list[int]]]:
    """The most units the graph carries, what each left node keeps of its ``capacity``, the flow."""
    flow = [[0] * len(need) for _ in edges]
    into = [0] * len(need)
    left = list(capacity)
    total, wanted = 0, sum(need)
    # Greedy first, in bulk; augmenting paths (one unit each) then mend what it missed.
    for node, rights in enumerate(edges):
        for right in rights:
            push = min(left[node], need[right] - into[right])
            if push > 0:
                flow[node][right] += push
                into[right] += push
                left[node] -= push
                total += push
    if total == wanted:
        return total, left, flow

    for node in range(len(edges)):
        while left[node] and total < wanted and _augment(node, set(), edges, flow, into, need):
            left[node] -= 1
            total += 1
    return total, left, flow


def _augment(
    node: int,
    seen: set[int],
    edges: list[list[int]],
    flow: list[list[int]],
    into: list[int],
    need: list[int],
) -> bool:
    """Carry one more unit from left node ``node`` along a path not through ``seen``.

    A function of the module, not one nested in :func:`_flow`: a nested
    function that calls itself is a reference cycle, which only the garbage
    collector frees, with the lists it holds.
    """
    for right in edges[node]:
        if right in seen:
            continue
        seen.add(right)
        if into[right] < need[right]:
            flow[node][right] += 1
            into[right] += 1
            return True
        for other in range(len(edges)):
            if flow[other][right] and _augment(other, seen, edges, flow, into, need):
                flow[other][right] -= 1
                flow[node][right] += 1
                return True
    return False


def routed(arcs: list[list[tuple[int, int]]], supply: dict[int, int], sink: int) -> int:
    """The most units a network carries from ``supply`` (node: units) to ``sink``.

    ``arcs[node]`` lists the arcs out of ``node`` as ``(head, capacity)``;
    a capacity of -1 is unbounded. Augmenting paths, depth first, each
    carrying as much as its narrowest arc allows.
    """
    size = len(arcs)
    residual: list[dict[int, int]] = [{} for _ in range(size + 1)]
    unbounded = sum(supply.values())
    for node, out in enumerate(arcs):
        for head, capacity in out:
            cap = unbounded if capacity < 0 else capacity
            residual[node][head] = residual[node].get(head, 0) + cap
            residual[head].setdefault(node, 0)
    source = size
    for node, units in supply.items():
        residual[source][node] = residual[source].get(node, 0) + units
        residual[node].setdefault(source, 0)
    total = 0
    while total < unbounded:
        parent = {source: source}
        stack = [source]
        while stack and sink not in parent:
            node = stack.pop()
            for head, cap in residual[node].items():
                if cap > 0 and head not in parent:
                    parent[head] = node
                    stack.append(head)
        if sink not in parent:
            break
        push, node = unbounded, sink
        while node != source:
            push = min(push, residual[parent[node]][node])
            node = parent[node]
        node = sink
        while node != source:
            residual[parent[node]][node] -= push
            residual[node][parent[node]] += push
            node = parent[node]
        total += push
    return total
