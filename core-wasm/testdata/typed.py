# Writes typed.json: amounts as people type them in en, es and pt, with the value taken from
# Babel (CLDR's number formats and its strict parser), an implementation independent of the
# Rust core. Needs Babel, which the test command does not: run once after a rule changes,
#   python3 -m venv /tmp/babel && /tmp/babel/bin/pip install babel==2.16.0
#   /tmp/babel/bin/python core-wasm/testdata/typed.py
# The core's rules are documented in core-wasm/src/amount/typed.rs; the one they decide beyond
# CLDR (a lone mark before exactly three digits) is spelled out below as `group_shaped`.
import json, os, re
from decimal import Decimal
from babel.numbers import format_decimal, parse_decimal, NumberFormatError

out = os.path.dirname(os.path.abspath(__file__)) + '/'
PAGES = {"en": "en", "es": "es", "pt": "pt_BR"}          # page language → the CLDR locale it reads as
SOURCES = ["en", "en_GB", "es", "es_MX", "es_AR", "es_CO", "pt_BR", "pt_PT"]
VALUES = ["0", "1", "1.5", "0.25", "0.000001", "10.5", "12", "123", "999.999", "1234", "1500",
          "12345", "123456.789", "1000000", "1234567.891234", "987654321.5", "340282366920.123456",
          "100.010", "7.125"]

def group_shaped(text):
    return re.fullmatch(r"[1-9][0-9]{0,2}[.,][0-9]{3}", text) is not None

def units(value, decimals):
    return str(int(Decimal(value) * (Decimal(10) ** decimals)))

parse, validate = [], []
def expect_value(text, page, decimals, value, note):
    parse.append({"args": [text, decimals, page], "expect": units(value, decimals), "note": note})
    validate.append({"args": [text, decimals, None, None, page], "expect": None, "note": note})
def expect_refusal(text, page, key, note):
    parse.append({"args": [text, 6, page], "expect": {"error": True}, "note": note})
    validate.append({"args": [text, 6, None, None, page], "expect": key, "note": note})

seen = set()
for value in VALUES:
    for source in SOURCES:
        for grouped in (True, False):
            text = format_decimal(Decimal(value), format="#,##0.######", locale=source,
                                  group_separator=grouped, decimal_quantization=False)
            # The value Babel reads back in the locale that wrote it: the reference.
            written = parse_decimal(text, locale=source, strict=True)
            assert written == Decimal(value), (text, source, written)
            for page, locale in PAGES.items():
                if (text, page) in seen:
                    continue
                seen.add((text, page))
                note = f"{source} writes {value} as {text!r}"
                if not group_shaped(text):
                    expect_value(text, page, 6, written, note)
                elif page == "es":
                    expect_refusal(text, page, "validations-amount-ambiguous",
                                   note + "; Spanish reads a lone mark before three digits both ways")
                else:
                    # The page's own convention decides; Babel's strict parser in that locale agrees.
                    mine = parse_decimal(text, locale=locale, strict=True)
                    expect_value(text, page, 6, mine, note + f"; read as {locale} writes it")

# Typed by hand: what a keyboard gives, each decided.
for text, page, value, note in [
    ("1,5", "en", "1.5", "a comma before one digit is a decimal mark in every language"),
    ("1.5", "es", "1.5", "Babel's lenient reading is 15 and its strict one refuses; ours is 1.5"),
    ("1.5", "pt", "1.5", "as in Spanish"),
    (",5", "es", "0.5", "no whole digits"),
    ("5,", "pt", "5", "a trailing decimal mark"),
    ("  2,75 ", "es", "2.75", "surrounding spaces"),
    ("1 500", "es", "1500", "a space only ever groups"),
    ("1\u202f500,25", "pt", "1500.25", "narrow no-break space, as ICU writes French"),
    ("0,500", "es", "0.5", "a leading 0 is not a thousands group"),
    ("1.000.000", "es", "1000000", "a mark used twice groups"),
    ("1,000,000", "es", "1000000", "in either convention"),
    ("1.234,56", "en", "1234.56", "a Spanish number on the English page"),
    ("1,234.56", "pt", "1234.56", "an English number on the Portuguese page"),
    ("0,000001", "pt", "0.000001", "the last USDT digit"),
    ("007", "en", "7", "leading zeros"),
]:
    expect_value(text, page, 6, Decimal(value), note)
for text, page, key, note in [
    ("1.2.3,4,5", "es", "validations-amount-msg", "marks in both roles"),
    ("12.34.567", "pt", "validations-amount-msg", "a group of two digits"),
    ("1234.567.890", "pt", "validations-amount-msg", "a first group of four"),
    ("1.234,5.6", "es", "validations-amount-msg", "a decimal part with a mark"),
    ("1 234.567,5", "pt", "validations-amount-msg", "spaces and dots both grouping"),
    ("0.000.001", "es", "validations-amount-msg", "a first group led by 0 (a million times 0.000001)"),
    ("0 500", "pt", "validations-amount-msg", "a first group led by 0"),
    ("-1,5", "es", "validations-amount-msg", "a sign"),
    ("1e3", "en", "validations-amount-msg", "an exponent"),
    ("1_000", "en", "validations-amount-msg", "an underscore"),
    ("\u0661\u0662", "en", "validations-amount-msg", "Arabic-Indic digits"),
    ("1,0000001", "es", "validations-amount-msg", "a seventh USDT decimal"),
    (",", "pt", "validations-amount-msg", "a mark alone"),
    ("1.500", "es", "validations-amount-ambiguous", "Mexico reads 1.5, Spain 1500"),
    ("1,500", "es", "validations-amount-ambiguous", "Mexico reads 1500, Spain 1.5"),
    ("999.999", "es-MX", "validations-amount-ambiguous", "a regional tag reads as its language"),
]:
    expect_refusal(text, page, key, note)
# 18 decimals (LVLX) with grouping.
for text, page, value in [("1.234.567,123456789012345678", "es", "1234567.123456789012345678"),
                          ("1,234,567.5", "en", "1234567.5"), ("0,000000000000000001", "pt", "0.000000000000000001")]:
    expect_value(text, page, 18, Decimal(value), "an LVLX amount")

def editable_text(plain, page):
    if page == "en":
        return plain
    text = plain.replace(".", ",")
    # A Spanish field never holds what Spanish reads both ways: one more fraction digit.
    return text + "0" if page == "es" and group_shaped(text) else text
editable = [{"args": [plain, page], "expect": editable_text(plain, page)}
            for plain in ["0", "1.5", "12345.5", "1500", "0.000001", "1.125", "999.999"]
            for page in ("en", "es", "pt")]
json.dump({"parseAmount": parse, "validateAmount": validate, "editableNumber": editable},
          open(out + "typed.json", "w", encoding="utf-8"), ensure_ascii=False, indent=1)
print(len(parse), "parse cases,", len(editable), "editable cases")
