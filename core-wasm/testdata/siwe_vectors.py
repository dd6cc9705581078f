# Writes siwe.json: EIP-4361 messages and whether spruceid's siwe-py (its ABNF parser, an
# implementation independent of the Rust core) reads them. The core's Message::parse must agree
# on every one (core-wasm/tests/vectors.rs). Run: pip install siwe 'abnf==2.2.0' &&
# python3 core-wasm/testdata/siwe_vectors.py
#
# One difference is kept out on purpose: EIP-4361's optional "scheme://" before the domain.
# This server never issues it, and the core refuses it; siwe-py reads it. And a URI of a scheme
# alone ("https:") is left out: RFC 3986 allows it (the core reads it), siwe-py does not; a
# message naming one is refused anyway, having no origin.
import json, os, itertools
from siwe import SiweMessage

HEAD = " wants you to sign in with your Ethereum account:"
ADDRESS = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2"

def text(domain="app.example.com", address=ADDRESS, statement="Link this wallet to my account.",
         uri="https://app.example.com", version="1", chain="137", nonce="a1b2c3d4e5f6a7b8",
         issued="2026-11-25T10:00:00.000Z", expires="2026-11-25T10:10:00.000Z", not_before=None,
         request_id=None, resources=None):
    lines = [domain + HEAD, address, ""]
    if statement is not None:
        lines += [statement]
    lines += ["", "URI: " + uri, "Version: " + version, "Chain ID: " + chain, "Nonce: " + nonce,
              "Issued At: " + issued]
    if expires is not None: lines.append("Expiration Time: " + expires)
    if not_before is not None: lines.append("Not Before: " + not_before)
    if request_id is not None: lines.append("Request ID: " + request_id)
    if resources is not None:
        lines.append("Resources:")
        lines += ["- " + r for r in resources]
    return "\n".join(lines)

cases = []
def add(t): cases.append(t)

add(text())
for domain in ["app.example.com", "127.0.0.1", "127.0.0.1:8080", "localhost:3000", "[::1]:8080",
               "[v7.x]", "user@host.example", "user:pw@host:1", "xn--bcher-kva.example", "a%20b.example",
               "a%2.example", "not_rfc", "a b", "", "host:port", "host:80:80", "a/b", "a?b", "a#b",
               "[::1", "ho^st", "münchen.example", "a..b", "-a.example", "host:", "@host"]:
    add(text(domain=domain))
for uri in ["https://app.example.com", "https://app.example.com/login?x=1#f", "http://127.0.0.1:8080",
            "urn:isbn:0451450523", "mailto:a@b.example", "ipfs://Qme7ss3ARVgxv6rXqVPiikMJ8u2NLgmgszg13pYrDKEoiu",
            "_not_a_uri_", "https://a b", "https://app.example.com/%zz", "https://app.example.com/%2F",
            "//app.example.com", "/relative", "1http://x", "http://[::1]/", "http://[::1/",
            "https://app.example.com/é", "https://app.example.com/{x}", "https://app.example.com/a|b"]:
    add(text(uri=uri))
for nonce in ["a1b2c3d4", "1234567", "12345678", "a1b2c3d4-e5f6", "ABCDEFGHabcdefgh0123456789",
              "a1b2c3d4 ", " a1b2c3d4", "ñandú1234", ""]:
    add(text(nonce=nonce))
for chain in ["1", "137", "0", "0137", "?", "-1", "1.0", "99999999999", ""]:
    add(text(chain=chain))
for version in ["1", "2", "01", ""]:
    add(text(version=version))
for statement in [None, "I accept the ServiceOrg Terms of Service: https://service.org/tos",
                  ":/?#[]@!$&'()*+,;= -._~", "Vincular esta carteira à minha conta.", "tab\there",
                  "quote \"x\"", "percent % sign", "caret ^", "back\\slash", "brace {}", "pipe |",
                  "lt < gt >", "backtick `", ""]:
    add(text(statement=statement))
for address in [ADDRESS, ADDRESS.lower(), ADDRESS.upper().replace("0X", "0x"), ADDRESS[:-1],
                ADDRESS + "0", ADDRESS[2:], "0x" + "g" * 40]:
    add(text(address=address))
for t in ["2026-11-25T10:00:00Z", "2026-11-25T10:00:00.5+01:00", "2026-11-25t10:00:00z",
          "2026-11-25 10:00:00Z", "2026-11-25T10:00:00", "2026-13-25T10:00:00Z",
          "2026-11-25T25:00:00Z", "Wed Oct 05 2011 16:48:00 GMT+0200", "2026-11-25", ""]:
    add(text(issued=t))
    add(text(expires=t))
add(text(expires=None))
add(text(not_before="2026-11-25T10:00:00Z"))
add(text(not_before="yesterday"))
for rid in ["some_id", "a%20b:c@d!$&'()*+,;=", "a b", "a/b", "a?b", "%zz", ""]:
    add(text(request_id=rid))
for resources in [[], ["https://a.example/x"], ["ipfs://Qme7", "https://b.example/y?z#w"],
                  ["_not_a_uri_"], ["https://a.example/x - https://b.example"]]:
    add(text(resources=resources))
add(text(not_before="2026-11-25T10:00:00Z", request_id="r1", resources=["https://a.example"]))
base = text()
lines = base.split("\n")
# Structure: lines swapped, dropped or doubled, extra line breaks, trailing text.
for i, j in itertools.combinations(range(5, len(lines)), 2):
    swapped = lines[:]
    swapped[i], swapped[j] = swapped[j], swapped[i]
    add("\n".join(swapped))
for i in range(len(lines)):
    add("\n".join(lines[:i] + lines[i + 1:]))
    add("\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:]))
add(base + "\n")
add(base.replace("\n\nURI", "\n\n\nURI"))
add(base.replace("\n", "\r\n"))
add(base + "\nResources:x")
add("https://" + base)

def parses(t):
    try:
        SiweMessage.from_message(t, abnf=True)
        return True
    except Exception:
        return False

out = [{"text": t, "parses": parses(t)} for t in dict.fromkeys(cases) if not t.startswith("https://")]
path = os.path.dirname(os.path.abspath(__file__)) + "/siwe.json"
json.dump(out, open(path, "w", encoding="utf-8"), ensure_ascii=False, indent=1)
print(len(out), "messages,", sum(c["parses"] for c in out), "read by siwe-py")
