# Writes the shared test vectors. Expected values come from Python (decimal, datetime), an
# implementation independent of the Rust core. Run: python3 core-wasm/testdata/generate.py
import json, base64
from decimal import Decimal, ROUND_HALF_UP, getcontext
getcontext().prec = 120
from datetime import datetime, timezone, timedelta
import os
out = os.path.dirname(os.path.abspath(__file__)) + '/'
def case(args, expect): return {"args": args, "expect": expect}
def dump(name, obj):
    json.dump(obj, open(out+name, 'w', encoding='utf-8'), ensure_ascii=False, indent=1)

# ---------- validation ----------
V = []
def v(field, value, expect, other=None):
    V.append(case([field, value] + ([other] if other is not None else []), expect))
for f in ["names","lastnames","email","emailC","password","passwordC","currentPassword","cel","number","code","claimCode","wallet","referralCode","secretKey"]:
    v(f, "", "validations-req"); v(f, "   ", "validations-req")
T="validations-txt-msg"
for ok in ["José Ñúñez","João Conceição","Ana","María José","Zoë","Ólafur Çelik","a"*40,"Li Na","Ğüş","ÀÉÎÕÜ","Cosme\u0301"]:
    v("names", ok, None); v("lastnames", ok, None)
for bad in ["Al","a"*41,"John3","O'Neil","Smith-Jones","Ann_","Jo.","Ana!","Z\u00e9\u00e9\u00e9"*11]:
    v("names", bad, T); v("lastnames", bad, T)
v("names", "Abc", None); v("names", "ab", T)
v("names", "e\u0301a", T)  # 2 letters however the accent is typed
v("names", "\u0301abc", T)  # a mark with no letter before it
v("names", "a"*39+"e\u0301", None)  # 40 letters, one of them decomposed
E="validations-email-msg"
for ok in ["user@example.com","a.b+c_d-e%f@mail.example.co","x@y.io","maria.jose@correo.es","n0@d1.com.br"]:
    v("email", ok, None)
for bad in ["User@example.com","user@Example.com","userexample.com","user@example","user@.com","user@example.c","@example.com","user@@example.com","user@exa_mple.com","user @example.com","user@-example.com","jo\u00e3o@example.com","user@example.c0m","a"*65+"@example.com"]:
    v("email", bad, E)
v("emailC", "user@example.com", None, "user@example.com")
v("emailC", "user@example.com", "validations-email", "other@example.com")
v("emailC", "User@example.com", E, "User@example.com")
P="validations-pass-msg"
for ok in ["Passw0rd!","Aa1@aaaa","Aa1$Aa1$Aa1$Aa1$Aa1$","Zz9#zzzz","Qq1.qqqq","Ww2%wwww","Ee3*eeee","Rr4?rrrr","Tt5&tttt"]:
    v("password", ok, None)
for bad in ["Aa1@aaa","Aa1@aaaaaaaaaaaaaaaaa","password1!","PASSWORD1!","Password!!","Password12","Pass word1!","Passw0rd-","Passw0rd_","Contraseña1!"]:
    v("password", bad, P)
v("passwordC", "Passw0rd!", None, "Passw0rd!")
v("passwordC", "Passw0rd!", "validations-pass", "Passw0rd?")
v("passwordC", "weak", P, "weak")
for ok in ["weak", "Passw0rd!", "a password from before the rules"]: v("currentPassword", ok, None)
PH="validations-phone-msg"
for f in ["cel","number"]:
    for ok in ["+1234567","+123456789012345","+34 612 345 678","+55 11 91234 5678","+5 5 5 5 5 5 5"]:
        v(f, ok, None)
    for bad in ["+123456","+1234567890123456","1234567890","+34  612345678","+34 612345678 ","+ 34612345678","+34-612-345-678","+34612a45678","++34612345678","+34 (612) 345678"]:
        v(f, bad, PH)
C="validations-code-msg"
for ok in ["1000","9999","1234"]: v("code", ok, None)
for bad in ["0123","123","12345","12a4","１２３４"," 123"]: v("code", bad, C)
CC="validations-claim-code-msg"
for ok in ["000000","123456","999999"]: v("claimCode", ok, None)
for bad in ["12345","1234567","12345a"]: v("claimCode", bad, CC)
W="validations-wallet-msg"
for ok in ["0x"+"a"*40,"0x"+"A"*40,"0x52908400098527886E0F7030069857D2E4169EE7","0x0000000000000000000000000000000000000000"]: v("wallet", ok, None)
for bad in ["0x"+"a"*39,"0x"+"a"*41,"0X"+"a"*40,"a"*42,"0x"+"g"*40,"0x"+"a"*39+" "]: v("wallet", bad, W)
R="validations-referral-msg"
for ok in ["0123456789abcdef","0123456789ABCDEF0123456789abcdef","a"*20]: v("referralCode", ok, None)
for bad in ["0123456789abcde","0123456789abcdef0123456789abcdef0","0123456789abcdeg","0123-456789abcdef"]: v("referralCode", bad, R)
for ok in ["x","  secret  ","a b c"]: v("secretKey", ok, None)
va=[]
def a(value, dec, mn, mx, expect): va.append(case([value, dec, mn, mx, "en"], expect))
a("10",6,"1","100",None); a("1",6,"1","100",None); a("100",6,"1","100",None)
a("0.999999",6,"1","100","validations-min-msg"); a("100.000001",6,"1","100","validations-max-msg")
a("",6,"1","100","validations-req"); a("abc",6,None,None,"validations-amount-msg"); a("1.0000001",6,None,None,"validations-amount-msg")
a("1e3",18,None,None,"validations-amount-msg"); a("-1",18,None,None,"validations-amount-msg"); a("5",18,None,"4.999999999999999999","validations-max-msg")
ref=[case([c],ok) for c,ok in [("0123456789abcdef",True),("0123456789abcde",False),("F"*32,True),("F"*33,False),("zz"*8,False)]]
dump("validation.json", {"validateField": V, "validateAmount": va, "isReferralCode": ref})

# ---------- amounts ----------
def usdt(base):
    q = (Decimal(base) / Decimal(10**19)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{q:.2f}"
L=[]
for b in ["0","1","49999999999999999","50000000000000000","99999999999999999","100000000000000000","10000000000000000000","12345000000000000000","12350000000000000000","1000000000000000000","123456789012345678901234567890","340282366920938463463374607431768211455"]:
    L.append(case([b], usdt(b)))
L.append(case(["1.5"], {"error": True})); L.append(case(["-1"], {"error": True})); L.append(case([""], {"error": True}))
L.append(case(["340282366920938463463374607431768211456"], {"error": True}))
def fmt(b, d):
    q = Decimal(b) / (Decimal(10)**d)
    s = format(q, 'f')
    if '.' in s: s = s.rstrip('0').rstrip('.')
    return s
F=[]
for b,d in [("0",18),("1",18),("1000000000000000000",18),("1500000000000000000",18),("123456789",6),("1000000",6),("100",6),("10",0),("340282366920938463463374607431768211455",18),("999999999999999999",18)]:
    F.append(case([b,d], fmt(b,d)))
F.append(case(["abc",18],{"error":True})); F.append(case(["1",31],{"error":True}))
PU=[]
for t,d,e in [("1",18,"1000000000000000000"),("1.5",18,"1500000000000000000"),(".25",6,"250000"),("0.000001",6,"1"),("10.",6,"10000000"),("0",6,"0"),("123456.123456",6,"123456123456"),("007",6,"7000000")]:
    PU.append(case([t,d],e))
for t,d in [("",6),(".",6),("1.0000001",6),("1,5",6),("-1",6),("1e3",6),(" 1",6),("1.2.3",6),("1",31),("340282366920938463463374607431768211455",18)]:
    PU.append(case([t,d],{"error":True}))
FX=[]
def ffix(b,d,dg):
    q=(Decimal(b)/(Decimal(10)**d)).quantize(Decimal(1)/(Decimal(10)**dg) if dg else Decimal(1), rounding=ROUND_HALF_UP)
    return f"{q:.{dg}f}"
for b,d,dg in [("1555",3,2),("1554",3,2),("1500000",6,2),("0",18,2),("999999999999999999",18,6),("1234567890123456789",18,4),("15",1,0),("5",1,0),("12",1,3)]:
    FX.append(case([b,d,dg], ffix(b,d,dg)))
SU=[case([["1","2","3"]],"6"),case([[]],"0"),case([["170141183460469231731687303715884105728","170141183460469231731687303715884105727"]],"340282366920938463463374607431768211455"),
    case([["170141183460469231731687303715884105728","170141183460469231731687303715884105728"]],{"error":True}),case([["1","x"]],{"error":True})]
# Digit grouping per language (CLDR: es groups from five whole digits, en and pt from four),
# built on Python's own "," grouping: a second implementation, not a port of the Rust one.
def loc(plain, lang):
    sign, rest = ("-", plain[1:]) if plain.startswith("-") else ("", plain)
    whole, _, frac = rest.partition(".")
    if not whole.isdigit() or (("." in rest) and not frac.isdigit()):
        return plain
    grouped = f"{int(whole):,}" if not (lang == "es" and len(whole) < 5) else whole
    grouped = grouped.rjust(len(whole), "0") if whole.startswith("0") and len(whole) > 1 else grouped
    if lang in ("es", "pt"):
        grouped = grouped.replace(",", ".")
    return sign + grouped + (("," if lang in ("es", "pt") else ".") + frac if "." in rest else "")
LN=[]
for t in ["0","1","12","123","1234","12345","123456","1234567","8855540174.38","1000.5","9999.99","10000.00","-1234567.891","0.000001","340282366920938463463.374607431768211455","",".5","1.","1,5","abc","1e9","12 345","-"]:
    for lang in ["en","es","pt"]:
        LN.append(case([t,lang], loc(t,lang)))
FT=[]
for b,tok in [("8855540174380000000000000000","LVLX"),("1234567890","USDT"),("999","USDT"),("1000000000","USDT"),("5000","USDT")]:
    for lang in ["en","es","pt"]:
        FT.append(case([b,tok,lang], loc(ffix(b, 6 if tok=="USDT" else 18, 2), lang)))
dump("amounts.json", {"lvlxToUsdt": L, "formatUnits": F, "parseUnits": PU, "formatFixed": FX, "sumUnits": SU, "localizeNumber": LN, "formatTokenIn": FT})

# ---------- dates ----------
NT=[case([0],0),case([1],1000),case([99999999999],99999999999000),case([100000000000],100000000000),case([1700000000],1700000000000),case([1700000000000],1700000000000)]
NT.append(case([1.5],{"error":True}))
def ms(y,mo,d,h=0,mi=0,s=0): return int(datetime(y,mo,d,h,mi,s,tzinfo=timezone.utc).timestamp()*1000)
CD=[]
for t,off in [(ms(2024,3,10,23,30),0),(ms(2024,3,10,23,30),60),(ms(2024,3,10,2,0),-180),(ms(2024,2,29,12),0),(ms(2024,12,31,23,59,59),0),(ms(2024,12,31,23,0),120),(1700000000,0)]:
    tt = t if t >= 1e11 else t*1000
    CD.append(case([t,off], (datetime.fromtimestamp(tt/1000,timezone.utc)+timedelta(minutes=off)).strftime("%Y-%m-%d")))
DR=[case(["2024-03-10","2024-03-10","2024-03-10"],True),case(["2024-03-09","2024-03-10","2024-03-20"],False),case(["2024-03-21","2024-03-10","2024-03-20"],False),
    case(["2024-03-20","2024-03-10","2024-03-20"],True),case(["2024-03-15",None,"2024-03-20"],True),case(["2024-03-15","2024-03-16",None],False),case(["2024-03-15",None,None],True),
    case(["2024-3-15","2024-03-10","2024-03-20"],{"error":True}),case(["2024-03-15","2024-02-30",None],{"error":True}),case(["2023-12-31","2024-01-01","2024-12-31"],False)]
def nextw(now, wd):
    n=datetime.fromtimestamp(now/1000,timezone.utc)
    pywd=(wd+6)%7
    for k in range(0,15):
        d=(n+timedelta(days=k)).replace(hour=14,minute=0,second=0,microsecond=0)
        if d.weekday()==pywd and d>n: return int(d.timestamp()*1000)
NW=[]
base=ms(2024,3,13,10)  # Wednesday
for now,wd in [(base,3),(ms(2024,3,13,14),3),(ms(2024,3,13,13,59,59),3),(ms(2024,3,13,15),3),(base,0),(base,6),(base,4),(ms(2024,12,30,15),1),(ms(2024,2,28,20),4)]:
    NW.append(case([now,wd],nextw(now,wd)))
NW.append(case([base,7],{"error":True}))
# Date fields in the page's language: en writes MM/DD/YYYY, es and pt DD/MM/YYYY.
def order(lang): return "%m/%d/%Y" if lang == "en" else "%d/%m/%Y"
FL=[]
for day,lang in [("2026-12-31","en"),("2026-12-31","es"),("2026-01-05","pt"),("0999-03-04","es"),("2024-02-29","en")]:
    FL.append(case([day,lang], datetime.strptime(day,"%Y-%m-%d").strftime(order(lang)) if not day.startswith("0") else "04/03/0999"))
FL.append(case(["2026-02-30","en"],{"error":True})); FL.append(case(["31/12/2026","es"],{"error":True}))
import re
def parse_local(text, lang):
    m = re.fullmatch(r"\s*(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4})\s*", text)
    if not m: return {"error":True}
    a,b,y = (int(g) for g in m.groups())
    d,mo = (b,a) if lang=="en" else (a,b)
    try: return datetime(y,mo,d).strftime("%Y-%m-%d")
    except ValueError: return {"error":True}
PL=[]
for text,lang in [("12/31/2026","en"),("31/12/2026","es"),("31/12/2026","en"),("5.1.2026","pt"),("05-01-2026","es"),(" 1 / 2 / 2026 ","en"),
                  ("29/02/2024","pt"),("29/02/2025","pt"),("01/01/20245","es"),("01/01/26","es"),("2026-01-05","en"),("","es"),("1/2","en"),("aa/bb/cccc","es"),("1/2/2026/4","en")]:
    PL.append(case([text,lang], parse_local(text,lang)))
dump("dates.json", {"normalizeTimestamp": NT, "calendarDate": CD, "dayInRange": DR, "nextWeekly": NW, "formatLocalDay": FL, "parseLocalDay": PL})

# ---------- display ----------
SW=[case(["0x52908400098527886E0F7030069857D2E4169EE7"],"0x5290...9EE7"),case(["0x1234"],"0x1234"),case(["0x1234567890"],"0x1234567890"),case(["0x12345678901"],"0x12345678901"),case(["0x12345678901234"],"0x1234...1234")]
SM=[case(["0x52908400098527886E0F7030069857D2E4169EE7"],"0x...9ee7"),case(["0xAB"],"0xab"),case(["0xABCDEF1"],"0xabcdef1"),case(["0xABCDEF12"],"0x...ef12")]
TE=[case(["short@mail.com"],"short@mail.com"),case(["exactly20chars@ab.io"],"exactly20chars@ab.io"),case(["exactly21chars@abc.io"],"exactly21chars@abc.i..."),case(["joão.conceição.silva@correo.com.br"],"joão.conceição.silva...")]
dump("display.json", {"shortWallet": SW, "shortWalletMessage": SM, "truncateEmail": TE})

# ---------- session & guards ----------
def b64(o): return base64.urlsafe_b64encode(json.dumps(o,separators=(',',':')).encode()).decode().rstrip('=')
def tok(payload): return b64({"alg":"HS256","typ":"JWT"})+"."+b64(payload)+".c2lnbmF0dXJl"
NOW=1767225600000  # 2026-01-01T00:00:00Z
live=NOW//1000+3600; dead=NOW//1000-1
U=tok({"id":"42","role":"1","exp":live})
A=tok({"id":"1","role":"1001","exp":live})
An=tok({"id":1,"role":1001,"exp":live})
X=tok({"id":"42","role":"1","exp":dead})
Edge=tok({"id":"42","role":"1","exp":NOW//1000})
DS=[case([U],{"exp":live,"role":"1","id":"42"}),case([An],{"exp":live,"role":"1001","id":"1"}),case(["garbage"],None),case(["a.b"],None),case(["a.%%%.c"],None),
    case([b64({"alg":"none"})+"."+b64({"role":"1"})+"."],None), case([U+".extra"],None)]
ADM='{"names":"Ada","lastnames":"Admin","roleAdmin":"1001"}'
ADMN='{"user":{"names":"Ada","roleAdmin":1001}}'
def st(**k): return k
show={"action":"show","to":None}
def r(to): return {"action":"redirect","to":to}
def c(to): return {"action":"clearAndRedirect","to":to}
G=[]
def g(kind, stored, expect, now=NOW, note=""):
    G.append({"args":[kind,stored,now],"expect":expect,"note":note})
# 1 admin
g("admin",st(),r("/login"),note="no token")
g("admin",st(sessionToken=X,adminInfo=ADM),c("/login"),note="expired token")
g("admin",st(sessionToken="not-a-jwt"),c("/login"),note="unreadable token is treated as expired")
g("admin",st(sessionToken=A,adminInfo=ADM),show,note="admin")
g("admin",st(sessionToken=An,adminInfo=ADMN),show,note="numeric role, nested adminInfo")
g("admin",st(sessionToken=A),r("/dashboard"),note="admin token without stored admin role")
g("admin",st(sessionToken=U,adminInfo=ADM),r("/dashboard"),note="stored admin role without admin token")
g("admin",st(sessionToken=U),r("/dashboard"),note="user")
g("admin",st(sessionToken=A,adminInfo="{broken"),r("/dashboard"),note="unreadable adminInfo")
# 2 user
g("user",st(),r("/login"),note="no token")
g("user",st(sessionToken="null"),r("/login"),note="the text null is no token")
g("user",st(sessionToken=X),c("/login"),note="expired")
g("user",st(sessionToken=Edge),show,note="exp equal to now is not earlier than now")
g("user",st(sessionToken=Edge),c("/login"),now=NOW+1,note="one ms later it is")
g("user",st(sessionToken=A,adminInfo=ADM),r("/admin/tables/users"),note="admin")
g("user",st(sessionToken=U),show,note="user")
# 3 public
g("public",st(),show,note="nothing stored")
g("public",st(verifyCode="true"),r("/verifycode"),note="marker first")
g("public",st(verifyCode="true",sessionToken=U),r("/verifycode"),note="marker beats token")
g("public",st(sessionToken=U),r("/dashboard"),note="logged in")
g("public",st(sessionToken=X),r("/dashboard"),note="expired: the user guard clears it there")
# 4 verify code
g("verifyCode",st(),r("/login"),note="no token")
g("verifyCode",st(verifyCode="true"),c("/login"),note="a marker without token is stale: cleared, or /login and /verifycode would loop")
g("verifyCode",st(sessionToken=X,verifyCode="true"),c("/login"),note="expired")
g("verifyCode",st(sessionToken=U,verifyCode="true"),show,note="token and marker")
g("verifyCode",st(sessionToken=U),r("/login"),note="token without marker")
# 5 reset
g("reset",st(),r("/login")); g("reset",st(userToken="u"),r("/login")); g("reset",st(resetToken="r"),r("/login"))
g("reset",st(userToken="u",resetToken="r"),show); g("reset",st(userToken="",resetToken="r"),r("/login"))
dump("session.json", {"decodeSession": DS, "guard": G})
print(len(V),"validation cases")

# ---------- captcha (proof of work) ----------
import hashlib
def solve(ch, d):
    n = 0
    while True:
        h = hashlib.sha256(f"{ch}:{n}".encode()).digest()
        if int.from_bytes(h, 'big') >> (256 - d) == 0 if d else True: return n
        n += 1
CP = [case([ch, d], solve(ch, d)) for ch, d in [("abc", 0), ("abc", 4), ("1767225600000.0011223344556677.8.deadbeef", 8), ("x", 12), ("José", 10)]]
CP.append(case(["abc", 33], {"error": True}))
dump("captcha.json", {"solveCaptcha": CP})

# ---------- admin tables (ICO ledger, users) ----------
# Rows in date order; each case is a query and what the table must answer. Semantics written
# here independently of the Rust engine: inclusive viewer-calendar dates, case-insensitive
# search, sorts with ties by row (reversed for descending), N° = position in date order + 1.
import random
rng = random.Random(7)
DAYMS = 86400000
def vday(t, off): return datetime.fromtimestamp((t + off*60000)/1000, tz=timezone.utc).strftime('%Y-%m-%d')
emails = ["ana.silva@correo.es", "JOAO@mail.br".lower(), "zoe@example.com", "maria.jose@correo.es", "li.na@example.com", "bob@example.org"]
base_t = ms(2024, 2, 28, 20, 0)
ico = []
t = base_t
for i in range(60):
    t += rng.choice([0, 3600_000, 7*3600_000, 13*3600_000, DAYMS])
    token = "USDT" if i % 7 == 3 else "LVLX"
    if token == "LVLX":
        amount = rng.choice([10**18, 15*10**17, 123456789012345678901, 1, 10**27 + 7])
    else:
        amount = rng.choice([10**6, 2500000, 999999999])
    ico.append({"createdAt": t, "email": rng.choice(emails), "token": token, "amount": str(amount)})
def tdec(tok): return 6 if tok == "USDT" else 18
def ico_answer(q):
    off = q.get("offsetMinutes", 0); s = q.get("start"); e = q.get("end"); needle = q.get("search", "").strip().lower()
    kept = [i for i, r in enumerate(ico) if (s is None or vday(r["createdAt"], off) >= s) and (e is None or vday(r["createdAt"], off) <= e) and (not needle or needle in r["email"].lower())]
    buys = [i for i in kept if ico[i]["token"] == "LVLX"]; rets = [i for i in kept if ico[i]["token"] != "LVLX"]
    lv = sum(int(ico[i]["amount"]) for i in buys)
    totals = {"totalUsers": len({ico[i]["email"] for i in kept}), "totalTransactions": len(kept),
              "totalBuyTransactions": len(buys), "totalWithdrawTransactions": len(rets),
              "totalLVLXTrasanctions": len(buys), "totalUSDTTrasanctions": len(rets),
              "totalLVLX": str(lv), "LVLX": str(lv), "usdtRetired": str(sum(int(ico[i]["amount"]) for i in rets)),
              "totalUSDT": usdt(str(lv)), "usdt": usdt(str(lv))}
    order = kept
    if q.get("sort"):
        col, d = q["sort"]["column"], q["sort"]["direction"]
        key = {"createdAt": lambda i: (ico[i]["createdAt"], i),
               "email": lambda i: (ico[i]["email"].lower(), ico[i]["email"], i),
               "purchasedToken": lambda i: (ico[i]["token"], i),
               "amount": lambda i: (int(ico[i]["amount"]) * 10**(18 - tdec(ico[i]["token"])), i)}[col]
        order = sorted(kept, key=key)
        if d == "desc": order = order[::-1]
        if col == "createdAt" and d == "asc": order = kept
        if col == "createdAt" and d == "desc": order = kept[::-1]
    return {"kept": len(kept), "totals": totals, "page": [[kept.index(i) + 1, i] for i in order[:10]]}
ICOQ = [{}, {"start": "2024-03-01", "end": "2024-03-03"}, {"start": "2024-03-01", "end": "2024-03-03", "offsetMinutes": -180},
        {"start": "2024-03-01", "end": "2024-03-01", "offsetMinutes": 330}, {"search": "  CORREO "}, {"search": "nobody"},
        {"start": "2030-01-01"}, {"sort": {"column": "amount", "direction": "desc"}}, {"sort": {"column": "amount", "direction": "asc"}, "search": "example"},
        {"sort": {"column": "email", "direction": "asc"}}, {"sort": {"column": "createdAt", "direction": "desc"}, "start": "2024-03-02"},
        {"sort": {"column": "purchasedToken", "direction": "desc"}}]
users = []
t = ms(2023, 12, 31, 23, 30)
names = ["José Ñúñez", "João Conceição", "Zoë Adams", "María José Pérez", "Li Na", "Bob Stone"]
for i in range(40):
    t += rng.choice([60_000, 5*3600_000, DAYMS, 2*DAYMS])
    nm = names[i % len(names)]
    users.append({"createdAt": t, "names": nm, "email": f"user{i}.{nm.split()[0].lower()}@example.com",
                  "wallet": None if i % 4 == 0 else "0x" + "%040x" % rng.getrandbits(160),
                  "referred": rng.choice([0, 0, 1, 3, 12]), "lvlx": str(rng.choice([0, 10**18, 5*10**17 + 5*10**15, 10**27])),
                  "rewards": str(rng.choice([0, 0, 2*10**16, 7*10**18 + 1])), "rank": rng.choice(["None", "Bronze", "Silver"])})
    users[-1]["id"] = 100 + 3 * i
    users[-1]["kyc"] = ["none", "pending", "approved", "none", "rejected"][i * 7 % 5]
def users_answer(q):
    off = q.get("offsetMinutes", 0); s = q.get("start"); e = q.get("end"); needle = q.get("search", "").strip().lower()
    kept = [i for i, u in enumerate(users) if (s is None or vday(u["createdAt"], off) >= s) and (e is None or vday(u["createdAt"], off) <= e) and (not needle or needle in u["names"].lower() or needle in u["email"].lower()) and (q.get("kyc") is None or u["kyc"] == q["kyc"])]
    lv = sum(int(users[i]["lvlx"]) for i in kept); rw = sum(int(users[i]["rewards"]) for i in kept)
    summary = {"totalUsers": len(kept), "totalUsersLVLX": str(lv), "totalUsersUSDT": usdt(str(lv)),
               "totalAddRewards": str(rw), "totalUSDTAddReward": usdt(str(rw)),
               "totalUsersWithWallet": sum(1 for i in kept if users[i]["wallet"]),
               "totalUsersAddReward": sum(1 for i in kept if int(users[i]["rewards"]) > 0),
               "totalLVLXWithAddReward": str(lv + rw), "totalUSTDWithAddReward": usdt(str(lv + rw))}
    order = kept
    if q.get("sort"):
        col, d = q["sort"]["column"], q["sort"]["direction"]
        txt = lambda v: ((v or "").lower(), v or "")
        key = {"names": lambda i: (txt(users[i]["names"]), i), "email": lambda i: (txt(users[i]["email"]), i),
               "wallet": lambda i: (txt(users[i]["wallet"]), i), "rank": lambda i: (txt(users[i]["rank"]), i), "kyc": lambda i: (txt(users[i]["kyc"]), i),
               "totalReferredMembers": lambda i: (users[i]["referred"], i), "totalLVLX": lambda i: (int(users[i]["lvlx"]), i),
               "totalUSDT": lambda i: (int(users[i]["lvlx"]), i), "addRewards": lambda i: (int(users[i]["rewards"]), i)}[col]
        order = sorted(kept, key=key)
        if d == "desc": order = order[::-1]
    return {"kept": len(kept), "summary": summary, "page": [[kept.index(i) + 1, i] for i in order[:10]]}
USERQ = [{}, {"search": "JOSÉ"}, {"search": "user1"}, {"start": "2024-01-01", "end": "2024-01-10", "offsetMinutes": 60},
         {"start": "2024-01-01", "end": "2024-01-01", "offsetMinutes": -60}, {"sort": {"column": "totalLVLX", "direction": "desc"}},
         {"sort": {"column": "names", "direction": "asc"}, "search": "o"}, {"sort": {"column": "wallet", "direction": "asc"}},
         {"sort": {"column": "totalReferredMembers", "direction": "desc"}}, {"sort": {"column": "rank", "direction": "desc"}, "start": "2024-01-15"},
         {"kyc": "approved"}, {"kyc": "none", "search": "o", "sort": {"column": "kyc", "direction": "asc"}}, {"sort": {"column": "kyc", "direction": "desc"}}]
dump("tables.json", {"ico": {"rows": ico, "cases": [{"query": q, "expect": ico_answer(q)} for q in ICOQ]},
                     "users": {"rows": users, "cases": [{"query": q, "expect": users_answer(q)} for q in USERQ]}})
