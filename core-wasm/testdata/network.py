# Independent reference (Python int) for the core's network rules: writes network.json (the
# core's functions, run by tests/vectors.rs and by the WebAssembly build) and network-tree.json
# (whole random referral trees with purchases; the core walks them in tests/vectors.rs and the
# server indexes them on anvil in backend/tests/network.rs).
#   python3 core-wasm/testdata/network.py
import json, random
random.seed(13)
LVLX = 10**18
USDT = 10**6
LEVELS = [800, 400, 200, 100, 50, 50]
RANKS = [(1, "Bronze", 1000, 100), (2, "Silver", 5000, 600), (3, "Gold", 25000, 3500), (4, "Platinum", 100000, 15000), (5, "Diamond", 500000, 80000)]

def share(amount, bps):
    return amount * bps // 10000

def commissions(amount, levels, upline):
    out = []
    for i, (bps, active) in enumerate(zip(levels, upline)):
        if active and share(amount, bps) > 0:
            out.append({"level": i + 1, "upline": i, "amount": str(share(amount, bps))})
    return out

def rank_json(r):
    return {"id": r[0], "name": r[1], "threshold": str(r[2]), "bonus": str(r[3])}

def standing(volume, ranks, achieved):
    ordered = sorted(ranks, key=lambda r: r[2])
    done = [r for r in ordered if r[0] in achieved]
    rank = done[-1] if done else None
    todo = [r for r in ordered if r[0] not in achieved]
    nxt = todo[0] if todo else None
    if nxt is None:
        missing, bps = 0, 10000
    else:
        lo = min(rank[2] if rank else 0, nxt[2])
        span = nxt[2] - lo
        part = min(max(volume - lo, 0), span)
        missing, bps = max(nxt[2] - volume, 0), (10000 if span == 0 else min(part * 10000 // span, 10000))
    return {"volume": str(volume), "rank": rank_json(rank) if rank else None, "next": rank_json(nxt) if nxt else None, "missing": str(missing), "progressBps": bps}

C = []
for amount in [0, 1, 12499, 10**18, 1234567890123456789012, 2**128 - 1, random.randrange(10**26)]:
    for upline in [[], [True], [True] * 6, [False, True, False, True, False, True], [True] * 9, [False] * 6]:
        C.append({"args": [str(amount), LEVELS, upline], "expect": commissions(amount, LEVELS, upline)})
C.append({"args": [str(10**18), [10000], [True]], "expect": commissions(10**18, [10000], [True]), "note": "one level paying everything"})

ranks = [(i, n, t * USDT, b * LVLX) for i, n, t, b in RANKS]
S = []
for volume in [0, 999 * USDT, 1000 * USDT, 6000 * USDT, 24999999999, 500000 * USDT, 10**30]:
    for achieved in [[], [1], [1, 2], [1, 2, 3, 4, 5], [2]]:
        S.append({"args": [str(volume), [rank_json(r) for r in ranks], achieved], "expect": standing(volume, ranks, achieved)})

json.dump({"commissions": C, "rankStanding": S}, open(__file__.replace("network.py", "network.json"), "w"), indent=1)

# Random trees: member i's sponsor is an earlier member (or none for roots), so no cycle can
# form; some members hold a node. Purchases by random members; each pays its upline exactly.
trees = []
for t in range(6):
    n = random.choice([12, 40, 120])
    depth_bias = random.choice([0.9, 0.5])
    parents = [None]
    for i in range(1, n):
        # Mostly chain onto recent members, so trees reach past six levels.
        p = i - 1 if random.random() < depth_bias else random.randrange(i)
        parents.append(p if random.random() > 0.03 else None)
    nodes = [random.random() < 0.6 for _ in range(n)]
    purchases = []
    for _ in range(random.choice([20, 60])):
        buyer = random.randrange(n)
        amount = random.choice([random.randrange(1, 10**22), random.randrange(1, 10**4), 10**18 * random.randrange(1, 10**5)])
        purchases.append([buyer, str(amount)])
    earned = [0] * n
    for buyer, amount in purchases:
        amount = int(amount)
        up = parents[buyer]
        for bps in LEVELS:
            if up is None:
                break
            if nodes[up]:
                earned[up] += share(amount, bps)
            up = parents[up]
    trees.append({"parents": parents, "nodes": nodes, "purchases": purchases, "levels": LEVELS, "earned": [str(e) for e in earned]})
json.dump(trees, open(__file__.replace("network.py", "network-tree.json"), "w"), indent=1)
print(f"{len(C)} commission, {len(S)} standing cases; {len(trees)} trees")

# A scenario the server plays on anvil (backend/tests/network.rs): member 0 is the demo member
# (the root), members 1..n its network; purchases are USDT amounts bought at the sale's price
# (0.1 USDT per LVLX), nodes are bought on chain in the order given (a node bought after a
# purchase does not earn from it), and one leaf buys before linking its wallet.
PRICE = 100_000  # USDT base units per whole LVLX
n = 24
parents = [None] + [max(0, i - 1) if i % 5 else random.randrange(i) for i in range(1, n + 1)]
nodes_first = [m for m in range(n + 1) if m % 3 != 2]
late_node = 5 if 5 not in nodes_first else 8
nodes_first = [m for m in nodes_first if m != late_node]
late_linker = n
events = [["node", m] for m in nodes_first]
buys = [[random.randrange(1, n + 1), random.randrange(20, 3000) * USDT + random.randrange(USDT)] for _ in range(30)]
buys.append([late_linker, 1234 * USDT])
events += [["buy", b, str(u)] for b, u in buys[:12]]
events.append(["node", late_node])
events += [["buy", b, str(u)] for b, u in buys[12:]]
has_node = set()
earned = [0] * (n + 1)
volume = [0] * (n + 1)
for e in events:
    if e[0] == "node":
        has_node.add(e[1])
        continue
    buyer, usdt = e[1], int(e[2])
    lvlx = usdt * 10**18 // PRICE
    up, level = parents[buyer], 0
    while up is not None:
        if level < len(LEVELS) and up in has_node:
            earned[up] += share(lvlx, LEVELS[level])
        volume[up] += usdt
        up, level = parents[up], level + 1
reached = [[r[0] for r in ranks if r[2] <= volume[m]] for m in range(n + 1)]
bonus = [sum(r[3] for r in ranks if r[0] in reached[m]) for m in range(n + 1)]
scenario = {"parents": parents, "events": events, "lateLinker": late_linker, "levels": LEVELS,
            "commissions": [str(e) for e in earned], "volume": [str(v) for v in volume],
            "ranks": reached, "rewards": [str(earned[m] + bonus[m]) for m in range(n + 1)]}
json.dump(scenario, open(__file__.replace("network.py", "network-chain.json"), "w"), indent=1)
print(f"chain scenario: {n + 1} members, {len(events)} events, root volume {volume[0] / USDT:.2f} USDT, root ranks {reached[0]}")
