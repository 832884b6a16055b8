"""``FilterWikipediaXML``: MindSpore's clean-up of Wikipedia XML dump text into lowercase letters and spaces."""
import re

from ._tokenizers import _StringMap

__all__ = ["FilterWikipediaXML"]

_DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

# (pattern, replacement) as MindSpore lists them (after Matt Mahoney's wikifil.pl). MindSpore keeps them in a
# std::map keyed by the pattern, so they run in the patterns' sorted order, not in this one; the upper-case "R"
# maps to "" there, and a "\n" replacement is a literal "n" in ICU's replacement syntax. Both are kept so that
# outputs equal MindSpore's.
_RULES = [(r"<.*>", ""), (r"&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), (r"<ef[^<]*<\/ef>", ""), ("<[^>]*>", ""),
          (r"\[http:[^] ]*", "["), (r"\|thumb", ""), (r"\|left", ""), (r"\|right", ""), (r"\|\d+px", ""),
          (r"\[\[image:[^\[\]]*\|", ""), (r"\[\[category:([^|\]]*)[^]]*\]\]", r"[[\1]]"),
          (r"\[\[[a-z\-]*:[^\]]*\]\]", ""), (r"\[\[[^\|\]]*\|", "[["), (r"\{\{[^\}]*\}\}", ""), (r"\{[^\}]*\}", ""),
          (r"\[", ""), (r"\]", ""), ("&[^;]*;", " ")] + \
    [(chr(c), "" if chr(c) == "R" else chr(c).lower()) for c in range(ord("A"), ord("Z") + 1)] + \
    [(str(d), f" {w} ") for d, w in enumerate(_DIGITS)] + \
    [(r"[^a-z\n]+", " "), (r"\n ", ""), (r"\s+", " "), (r"\n\s*\n", "n")]
_ORDERED = [(re.compile(p), r) for p, r in sorted(_RULES, key=lambda pr: pr[0])]


def filter_wikipedia_xml(text: str) -> str:
    """The cleaned text ('' for a ``#redirect`` page)."""
    if "#redirect" in text or "#REDIRECT" in text:
        return ""
    for pattern, repl in _ORDERED:
        text = pattern.sub(repl, text).strip()
    return text


class FilterWikipediaXML(_StringMap):
    """Clean Wikipedia XML dump text to lowercase letters and single spaces (digits spelled out), exactly as
    MindSpore's operation does.

    >>> FilterWikipediaXML()("Hello World 42!").item()
    'hello world four two'
    """

    def _map(self, text):
        return filter_wikipedia_xml(text)
