"""The parts of the claim-evidence consistency check (core/validation/consistency.py).

text: one prepared side (tokens, clauses); lexicon, units, numerals: the words read;
dates, quantities, facts: figures and dates; cues, polarity: negation, quantifiers, modality;
direction: comparisons; entities: names; support: how much of the claim the quote backs.
"""
