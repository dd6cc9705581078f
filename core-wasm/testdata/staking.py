# Independent reference (Python int) for the core's staking rules: writes staking.json beside it.
# The Rust core (tests/vectors.rs) and its WebAssembly build (web/test/core.test.mjs) must agree.
#   python3 core-wasm/testdata/staking.py
import json, random
random.seed(12)
DAY = 86400
# A stake accepts a release up to an hour after its quote (the contract's maxRelease).
SLACK = 3600
NFT = [(1,50,1000,180),(2,100,1000,180),(3,250,1100,180),(4,500,1200,180),(5,1000,1800,270),(6,2500,1900,270),(7,5000,2000,270),(8,10000,2100,270),(9,25000,3000,360),(10,50000,3200,360),(11,100000,3500,360)]
TIERS = [(1,100,30),(2,400,90),(3,1000,180),(4,2400,360)]
def usdt_text(lvlx):
    per = 10**17
    cents = lvlx // per + (1 if lvlx % per >= per // 2 else 0)
    return f"{cents // 100}.{cents % 100:02d}"
cases_q = []
now = 1795000000
for kind, usdt, bps, days in NFT:
    terms = {"kind": kind, "usdtValue": str(usdt * 10**6), "rateBps": bps, "lockSeconds": days * DAY}
    for qty in (1, 3, 7):
        reward = qty * usdt * 10**6 * 10**13 * bps // 10000
        cases_q.append({"args": ["nft", terms, str(qty), str(10**30), now], "expect": {"reward": str(reward), "rewardUsdt": usdt_text(reward), "release": now + days * DAY, "maxRelease": now + days * DAY + SLACK}})
for kind, bps, days in TIERS:
    terms = {"kind": kind, "usdtValue": "0", "rateBps": bps, "lockSeconds": days * DAY}
    for amount in (1, 99, 10**18, 1234567890123456789012, random.randrange(10**30), 2**128 - 1):
        reward = amount * bps // 10000
        expect = {"reward": str(reward), "rewardUsdt": usdt_text(reward), "release": now + days * DAY, "maxRelease": now + days * DAY + SLACK} if reward else {"error": "staking-reward-zero"}
        cases_q.append({"args": ["lvlx", terms, str(amount), str(2**128 - 1), now], "expect": expect})
t4 = {"kind": 4, "usdtValue": "0", "rateBps": 2400, "lockSeconds": 360 * DAY}
cases_q.append({"args": ["lvlx", t4, str(1000 * 10**18), str(240 * 10**18 - 1), now], "expect": {"error": "chain-reserve-short"}, "note": "one base unit short"})
cases_q.append({"args": ["lvlx", t4, str(1000 * 10**18), str(240 * 10**18), now], "expect": {"reward": str(240 * 10**18), "rewardUsdt": "24.00", "release": now + 360 * DAY, "maxRelease": now + 360 * DAY + SLACK}, "note": "exactly covered"})
cases_q.append({"args": ["lvlx", t4, "0", "1", now], "expect": {"error": "staking-amount-zero"}})
# 41 base units at 24 % earn 9; 4 earn 0, which the contract refuses (ZeroReward).
cases_q.append({"args": ["lvlx", t4, "41", "100", now], "expect": {"reward": "9", "rewardUsdt": "0.00", "release": now + 360 * DAY, "maxRelease": now + 360 * DAY + SLACK}})
cases_q.append({"args": ["lvlx", t4, "4", "100", now], "expect": {"error": "staking-reward-zero"}, "note": "earns nothing"})
cases_q.append({"args": ["nft", {"kind": 12, "usdtValue": "1", "rateBps": 1, "lockSeconds": 1}, "1", "1", now], "expect": {"error": "staking-not-offered"}})
cases_s = []
for _ in range(40):
    reward = random.choice([random.randrange(10**18), random.randrange(10**27), 2**128 - 1, 7])
    start = random.randrange(1_700_000_000, 1_800_000_000)
    length = random.choice([1, 3, 30 * DAY, 360 * DAY])
    release = start + length
    at = random.choice([start - 5, start, start + 1, start + length // 3, release - 1, release, release + 1000])
    accrued = reward if at >= release else 0 if at <= start else reward * (at - start) // (release - start)
    withdrawn = random.randrange(accrued + 1)
    cases_s.append({"args": [{"reward": str(reward), "startDate": start * 1000, "withdrawDate": release * 1000, "withdrawn": str(withdrawn)}, at],
                    "expect": {"accrued": str(accrued), "withdrawable": str(accrued - withdrawn), "accruedUsdt": usdt_text(accrued), "released": at >= release, "secondsLeft": max(release - at, 0)}})
doc = {"stakingQuote": cases_q, "stakingStanding": cases_s}
open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'staking.json'), 'w').write(json.dumps(doc, indent=1) + '\n')
print(len(cases_q), len(cases_s))
