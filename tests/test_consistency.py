"""Claim-evidence consistency (issue 16): a claim that changes one number, date, negation, name,
quantifier, modal or comparison of its quote contradicts it, with a reason a reader can act on;
faithful paraphrases and the card writer's clean-ups stay consistent; a span is never flagged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from card_support import one_card, one_paragraph
from hypothesis import given, settings
from hypothesis import strategies as st

from core.domain import ValidationIssue, ValidationReport
from core.validation import validate
from core.validation.cards import CARD_CODES
from core.validation.consistency import CODES, check, verbatim

SAMPLES = Path(__file__).resolve().parent.parent / "sample_articles"


def test_the_issue_examples_contradict_with_the_reason() -> None:
    v = check(
        "The survey found that 42 percent of adults read every day.",
        "The survey found that 90 percent of adults read every day.",
    )
    assert v.verdict == "contradicts"
    assert v.reasons == ("the quote says 42 percent, the claim 90 percent",)
    v = check("The enzyme RuBisCO fixes carbon dioxide.", "The enzyme RuBisCO never fixes carbon dioxide.")
    assert v.verdict == "contradicts"
    assert v.reasons == ("the claim negates the quote: 'never fixes' vs 'fixes'",)


CONTRADICTIONS = [
    # (kind, quote, claim, words the reason must quote)
    ("number", "The bridge is 3 km long.", "The bridge is 3 miles long.", ["3 km", "3 miles"]),
    (
        "number",
        "The battery charges twice as fast.",
        "The battery charges three times as fast.",
        ["twice", "three times"],
    ),
    (
        "number",
        "The process has two stages.",
        "The process has three stages.",
        ["two stages", "three stages"],
    ),
    ("number", "It happened in the second stage.", "It happened in the third stage.", ["second", "third"]),
    ("number", "光合作用分為兩個階段。", "光合作用分為三個階段。", ["兩個階段", "三個階段"]),
    (
        "number",
        "调查显示，约42%的受访者从未去过图书馆。",
        "调查显示，约90%的受访者从未去过图书馆。",
        ["42%", "90%"],
    ),
    ("number", "这座大桥全长3公里。", "这座大桥全长3英里。", ["3公里", "3英里"]),
    ("date", "The company was founded in 1998.", "The company was founded in 1989.", ["1998", "1989"]),
    ("date", "The committee meets on 14 March.", "The committee meets on 14 May.", ["14 March", "14 May"]),
    ("date", "这座大桥于2019年三月建成。", "这座大桥于2019年五月建成。", ["三月", "五月"]),
    ("date", "颱風預計週三登陸。", "颱風預計週五登陸。", ["週三", "週五"]),
    (
        "negation",
        "Because the cycle does not need light, it runs at night.",
        "Because the cycle needs light, it runs at night.",
        ["does not need", "needs"],
    ),
    ("negation", "研究发现，喝咖啡不会导致脱水。", "研究发现，喝咖啡会导致脱水。", ["不会导致"]),
    ("negation", "我們沒有收到任何投訴。", "我們收到了投訴。", ["沒有收到"]),
    (
        "entity",
        "In 1885 Hermann Ebbinghaus measured his memory.",
        "In 1885 William James measured his memory.",
        ["Hermann Ebbinghaus", "William James"],
    ),
    ("entity", "北京冬奥会于2022年2月4日开幕。", "东京冬奥会于2022年2月4日开幕。", ["北京", "东京"]),
    ("entity", "日月潭位於南投縣。", "日月潭位於花蓮縣。", ["南投縣", "花蓮縣"]),
    (
        "quantifier",
        "Some antibiotics kill gut bacteria.",
        "All antibiotics kill gut bacteria.",
        ["Some antibiotics", "All antibiotics"],
    ),
    ("quantifier", "大多数蝙蝠并不是瞎子。", "少数蝙蝠并不是瞎子。", ["大多数", "少数"]),
    ("quantifier", "所有乘客都必須繫好安全帶。", "部分乘客必須繫好安全帶。", ["所有", "部分"]),
    (
        "modality",
        "Children who sleep too little may have trouble at school.",
        "Children who sleep too little will have trouble at school.",
        ["may have", "will have"],
    ),
    ("modality", "患者在手术前必须禁食。", "患者在手术前可以禁食。", ["必须", "可以"]),
    ("modality", "學生應該在考試前完成報告。", "學生必須在考試前完成報告。", ["應該", "必須"]),
    (
        "comparison",
        "A higher target means more reviews.",
        "A higher target means fewer reviews.",
        ["more reviews", "fewer reviews"],
    ),
    (
        "comparison",
        "Retrieval strengthens memory more than rereading does.",
        "Rereading strengthens memory more than retrieval does.",
        ["more"],
    ),
    ("comparison", "2023年粮食产量比上年增加1.3%。", "2023年粮食产量比上年减少1.3%。", ["增加", "减少"]),
    ("comparison", "這款手機的電池比上一代大。", "這款手機的電池比上一代小。", ["大", "小"]),
    (
        "comparison",
        "Patients must fast for at least eight hours.",
        "Patients must fast for at most eight hours.",
        ["at least eight hours", "at most eight hours"],
    ),
]


@pytest.mark.parametrize(
    ("kind", "quote", "claim", "words"),
    CONTRADICTIONS,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(CONTRADICTIONS)],
)
def test_one_changed_fact_contradicts_with_a_reason(
    kind: str, quote: str, claim: str, words: list[str]
) -> None:
    v = check(quote, claim)
    assert v.verdict == "contradicts", v
    assert kind in {f.kind for f in v.findings}, v
    reason = " ".join(f.message for f in v.findings if f.kind == kind)
    for word in words:
        assert word in reason, (word, reason)


FAITHFUL = [
    (
        "The survey of 1,200 adults found that 42 percent had never used a library.",
        "42% of the 1200 adults surveyed had never used a library.",
    ),
    ("The stadium holds 50,000 fans.", "The stadium holds fifty thousand fans."),
    ("The stadium holds 50,000 fans.", "The stadium has room for 50 000 fans."),
    ("The company has 2.5 million customers.", "The company has two and a half million customers."),
    (
        "The bridge is 3 km long and took four years to build.",
        "Building the three-kilometre bridge took 4 years.",
    ),
    ("The report was published on 3 May 2019.", "The report came out on 2019-05-03."),
    (
        "According to the World Health Organization, 1 in 8 people live with a mental disorder.",
        "One in eight people live with a mental disorder, according to the WHO.",
    ),
    (
        "Prices in the city rose faster than wages last year.",
        "Last year, wages in the city grew more slowly than prices.",
    ),
    ("Germany's population is larger than France's.", "France's population is smaller than Germany's."),
    (
        "The vaccine is not recommended for children under two.",
        "The vaccine isn't recommended for kids younger than 2.",
    ),
    (
        "The new policy will not affect current employees.",
        "Current employees won't be affected by the new policy.",
    ),
    (
        "Few of the original settlers survived the first winter.",
        "Not many of the original settlers survived the first winter.",
    ),
    (
        "Students can borrow up to five books at a time.",
        "At any one time, a student may borrow as many as 5 books.",
    ),
    (
        "The law requires employers to give workers 20 days of leave.",
        "Employers must give workers twenty days of leave, under the law.",
    ),
    ("On average, women in Japan live longer than men.", "On average, Japanese women outlive men."),
    ("调查显示，约42%的受访者从未去过公共图书馆。", "调查显示，约百分之四十二的受访者从没去过公共图书馆。"),
    ("调查显示，约42%的受访者从未去过公共图书馆。", "约４２％的受访者说自己从未去过公共图书馆。"),
    ("这家工厂有一千名工人。", "这家工厂有1,000名工人。"),
    ("北京冬奥会于2022年2月4日开幕。", "北京冬奥会在二〇二二年二月四日开幕。"),
    ("世界卫生组织表示，全球约八分之一的人患有精神障碍。", "据世卫组织称，全球约有1/8的人患有精神障碍。"),
    ("研究顯示，每天運動三十分鐘可以降低心臟病的風險。", "每天運動半小時可以降低心臟病的風險。"),
    ("學生應該在考試前一週完成報告。", "學生應該在考試前7天完成報告。"),
    ("上海的人口比北京多，但北京的面积更大。", "北京面积比上海大，但人口比上海少。"),
    ("游客不得在园内喂食动物。", "园内禁止游客喂食动物。"),
    ("你应该在安装更新之前备份文件。", "安装更新前，你应当先备份文件。"),
]


@pytest.mark.parametrize(("quote", "claim"), FAITHFUL)
def test_faithful_paraphrases_do_not_contradict(quote: str, claim: str) -> None:
    v = check(quote, claim)
    assert v.verdict != "contradicts", v.reasons


CARD_WRITER = [
    # what the offline card writer changes without changing the meaning: all exactly consistent
    (
        "However, spacing cannot rescue material that was never understood.",
        "Spacing cannot rescue material that was never understood.",
    ),
    (
        "It produces nearly all of the oxygen in the atmosphere.",
        "Photosynthesis produces nearly all of the oxygen in the atmosphere.",
    ),
    (
        "However, it stops soon after dark, since its supply of ATP runs out.",
        "The Calvin cycle stops soon after dark, since its supply of ATP runs out.",
    ),
    (
        "This pattern is called the forgetting curve.",
        "The pattern of fast forgetting is called the forgetting curve.",
    ),
    (
        "- **Stability**: the number of days after which recall falls to 90 percent.",
        "Stability: the number of days after which recall falls to 90 percent.",
    ),
    ("Use `fsrs` to *schedule* reviews.", "Use fsrs to schedule reviews."),
    ("(CNN) -- The council voted 7 to 2 on Tuesday.", "The council voted 7 to 2 on Tuesday."),
    ("LONDON (Reuters) -- British inflation rose to 3.2 percent.", "British inflation rose to 3.2 percent."),
    ("The city has a population of about 2.1 million.[3]", "The city has a population of about 2.1 million."),
    ("但是，间隔重复无法挽救从未真正理解的内容。", "间隔重复无法挽救从未真正理解的内容。"),
    ("它能让知识在长期记忆中保存得更久。", "间隔重复能让知识在长期记忆中保存得更久。"),
    ("但是天黑之後它很快就會停止。", "天黑之後卡爾文循環很快就會停止。"),
    ("- 稳定性：回忆概率降到百分之九十所需的天数。", "稳定性：回忆概率降到百分之九十所需的天数。"),
]


@pytest.mark.parametrize(("quote", "claim"), CARD_WRITER)
def test_the_card_writers_clean_ups_are_consistent(quote: str, claim: str) -> None:
    assert check(quote, claim).verdict == "consistent", check(quote, claim).reasons


def _sentences() -> list[str]:
    out = []
    for path in sorted(SAMPLES.glob("*.*")):
        if path.suffix in (".txt", ".md"):
            text = path.read_text(encoding="utf-8")
            out += [s for s in re.split(r"(?<=[.!?。！？])\s*", text) if len(s.strip()) > 8]
    return out


def test_a_span_of_the_quote_is_never_flagged() -> None:
    """Every word-aligned span of every sample sentence (and the sentence itself) is consistent."""
    checked = 0
    for sentence in _sentences():
        pieces = re.findall(r"[\u3400-\u9fff]|\S+", sentence)
        for a in range(0, len(pieces), 3):
            for b in range(a + 1, len(pieces) + 1, 4):
                sep = "" if re.match(r"[\u3400-\u9fff]", pieces[a]) else " "
                span = sep.join(pieces[a:b])
                if re.search(r"\b(?:not|no|never)\s*$|[不没沒未无無非]$", sep.join(pieces[:a])):
                    continue  # a span cut off from a negation just before it is checked (next test)
                assert check(sentence, span).verdict == "consistent", (sentence, span)
                checked += 1
    assert checked > 300


def test_a_span_starts_and_ends_at_word_boundaries() -> None:
    assert not verbatim("The memory becomes unstable.", "stable")
    assert check("The memory becomes unstable.", "The memory becomes stable.").verdict == "contradicts"
    assert verbatim("光合作用主要在葉綠體中進行。", "葉綠體中進行")  # Chinese has no word boundaries to keep


def test_a_span_cut_off_from_its_negation_is_checked() -> None:
    v = check("No survivors were found after the storm.", "Survivors were found after the storm.")
    assert v.verdict == "contradicts"
    assert check("这种方法并不适用于儿童。", "适用于儿童。").verdict == "contradicts"


def test_a_claim_the_quote_does_not_back_is_unsupported() -> None:
    v = check(
        "Octopuses have three hearts and blue blood.", "Octopuses can change colour to hide from predators."
    )
    assert v.verdict == "unsupported" and v.reasons
    v = check("The process has two stages.", "Most learners choose a target of 90 percent.")
    assert v.verdict == "unsupported"
    assert any("90 percent" in r for r in v.reasons)


def test_findings_become_coded_issues_errors_and_warnings() -> None:
    contradiction = check("Tickets cost £40.", "Tickets cost $40.")
    (issue,) = contradiction.issues("memory_units[3]")
    assert issue.code == CODES["number"] == "claim_contradicts_number"
    assert issue.severity == "error" and issue.unit_index == 3
    assert "£40" in issue.message and "$40" in issue.message
    (warning,) = check("The process has two stages.", "Both stages take place in the leaves.").issues(
        "memory_units[0]"
    )
    assert (warning.code, warning.severity) == ("claim_unsupported", "warning")
    assert check("The process has two stages.", "The process has two stages.").issues("memory_units[0]") == ()


def claims(report: ValidationReport) -> list[ValidationIssue]:
    """The claim checks' issues (the card rules' warnings have tests of their own)."""
    return [i for i in report.issues if i.code.startswith("claim_")]


def test_the_validator_blocks_an_edit_that_contradicts_its_quote() -> None:
    quote = "The survey found that 42 percent of adults never use a library."
    doc = one_paragraph(quote)

    def report(content: str, answer: str = "42 percent"):  # type: ignore[no-untyped-def]
        return validate(one_card(content, quote, "What share of adults never use a library?", answer), doc)

    assert claims(report(quote)) == []  # verbatim content: never flagged
    assert report("42% of adults never use a library, the survey found.").ok
    edited = report("The survey found that 90 percent of adults never use a library.")
    assert not edited.ok
    issue, stale = claims(edited)
    assert issue.code == "claim_contradicts_number" and "42 percent" in issue.message
    # the question still asks for 42 percent: it contradicts its own unit's content (issue 32)
    assert (stale.code, stale.location, stale.keepable) == (
        "claim_question_contradicts",
        "recall_questions[0]",
        False,
    )
    wrong_answer = report(quote, answer="90 percent")
    assert [(i.code, i.location) for i in claims(wrong_answer)] == [
        ("claim_contradicts_number", "recall_questions[0]"),
        ("claim_question_contradicts", "recall_questions[0]"),
    ]
    negated = report("The survey found that 42 percent of adults always use a library.")
    assert {i.code for i in negated.issues} >= {"claim_contradicts_negation"}


def test_a_cloze_answer_is_read_in_its_sentence() -> None:
    """A blank just after the quote's own negation: the answer alone ('understood') would drop
    the 'never'; filled into its sentence it says what the quote says."""
    quote = "However, spacing cannot rescue material that was never understood."
    doc = one_paragraph(quote)

    def cloze(question: str, answer: str) -> list[ValidationIssue]:
        return claims(validate(one_card(quote, quote, question, answer, "cloze", tags=("spacing",)), doc))

    assert cloze("However, spacing cannot rescue material that was never ____.", "understood") == []
    found = cloze("However, spacing cannot rescue material that was ____ understood.", "always")
    assert {i.location for i in found} == {"recall_questions[0]"} and all(
        i.severity == "error" for i in found
    )


def test_an_ungrounded_unit_is_not_checked_against_a_quote_that_is_not_there() -> None:
    doc = one_paragraph("Photosynthesis has two stages.")
    unit = one_card(
        "Photosynthesis has three stages.", "two stages", "Q?", "A", paragraph_id="p_404", confidence=0.5
    )
    report = validate(unit, doc)
    assert [i.code for i in report.issues if i.code not in CARD_CODES] == ["unknown_paragraph"]


TEXT = st.text(
    alphabet=st.sampled_from(list("ab cde 12.,%$- 不没一二十年月日的是光合作用NOT never 42")), max_size=60
)


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT)
def test_any_text_gets_a_verdict_never_an_exception(quote: str, claim: str) -> None:
    v = check(quote, claim)
    assert v.verdict in ("consistent", "contradicts", "unsupported")
    assert (v.verdict == "contradicts") == any(f.contradicts for f in v.findings)
    assert v.verdict == "consistent" or v.reasons
