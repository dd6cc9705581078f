# Writes phones.json: numbers in the core's form (+ and digits) and whether Google's
# libphonenumber, through its faithful Python port `phonenumbers`, holds them valid. The server
# (rlibphonenumber) and the browser (libphonenumber-js, max metadata) must agree on every one
# (core-wasm/src/validation.rs, web/test/core.test.mjs). Run:
#   pip install 'phonenumbers==9.0.43' && python3 core-wasm/testdata/phones.py
import json, os, random
import phonenumbers
from phonenumbers import PhoneNumberType as T

random.seed(27)
TYPES = [T.FIXED_LINE, T.MOBILE, T.TOLL_FREE, T.PREMIUM_RATE, T.SHARED_COST, T.VOIP,
         T.PERSONAL_NUMBER, T.PAGER, T.UAN, T.VOICEMAIL, T.FIXED_LINE_OR_MOBILE]


def e164(n):
    return phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164)


numbers = set()
for region in sorted(phonenumbers.SUPPORTED_REGIONS):
    for t in TYPES:
        n = phonenumbers.example_number_for_type(region, t)
        if n is not None:
            numbers.add(e164(n))
for code in phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS:
    n = phonenumbers.example_number_for_non_geo_entity(code)
    if n is not None:
        numbers.add(e164(n))
# The outside review's numbers: Russian landline and toll-free, Lithuanian and Belarusian
# trunk-prefixed forms, and a Dutch mobile with extra digits.
numbers.update(["+78121234567", "+78001234567", "+37061234567", "+370861234567",
                "+375291234567", "+3758029123456", "+31612345678", "+3161234567899"])
variants = set()
for n in sorted(numbers):
    digits = n[1:]
    variants.add("+" + digits + str(random.randrange(10)))       # a digit too many
    variants.add("+" + digits[:-1])                              # a digit short
    i = random.randrange(1, len(digits))
    variants.add("+" + digits[:i] + str(random.randrange(10)) + digits[i + 1:])  # one changed
    variants.add("+" + digits[:-2] + "%02d" % random.randrange(100))
# The second outside review's numbers, taken as they are (no variants, so the ones above stay
# the same): Ascension Island's 5-digit and Peru's 9-digit Lima forms. phonenumbers 9.0.33
# held them invalid; the metadata changed since, and 9.0.42 and 9.0.43 hold them valid.
numbers.update(["+24761873", "+5119838901"])
cases = []
for value in sorted(numbers | variants):
    if not (8 <= len(value) <= 16):  # the core's form: + and 7 to 15 digits
        continue
    try:
        valid = phonenumbers.is_valid_number(phonenumbers.parse(value, None))
    except phonenumbers.NumberParseException:
        valid = False
    cases.append({"number": value, "valid": valid})
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "phones.json")
json.dump({"libphonenumber": phonenumbers.__version__, "cases": cases}, open(out, "w"), indent=0)
print(len(cases), "numbers,", sum(c["valid"] for c in cases), "valid, metadata", phonenumbers.__version__)
