"""The cue words the consistency check reads: negation, quantifiers, modality, direction.

English entries are lower-case words (the tokenizer splits "doesn't" into "does" + "n't" and
"cannot" into "can" + "not"); multi-word cues are tuples. Chinese entries are listed in
Simplified and Traditional forms. Non-cue words that contain a cue character (不同, 非常, 能量,
社會, 反應, 主要 ...) are listed in MASK_ZH and blanked before cues are searched for.
"""

from __future__ import annotations


def words(text: str) -> list[str]:
    """A space-separated word list (the tables below are written as text)."""
    return text.split()


# --- negation ----------------------------------------------------------------------------

NEG_EN = frozenset(
    words("not n't no never none nobody nothing nowhere neither nor without unable lack lacks lacked lacking")
)
# "not only X but also Y" asserts X; "no doubt" asserts
NEG_EN_EXCEPT = frozenset({("not", "only"), ("not", "just"), ("not", "merely"), ("no", "doubt")})
# "fail(s|ed) to V": negation of V
NEG_EN_VERB_TO = frozenset({"fail", "fails", "failed", "failing"})

NEG_ZH = words(
    "没有 沒有 从未 從未 从不 從不 从没 從沒 并非 並非 并不 並不 毫无 毫無 无法 無法 不再 未曾 尚未 "
    "绝不 絕不 决不 決不 不得 禁止 别 別 勿 莫 不 没 沒 未 非 无 無"
)

# --- quantifiers (determiners and frequency adverbs share the classes) -------------------

ALL, MOST, MANY, SOME, FEW, NONE = "all", "most", "many", "some", "few", "none"
QUANT_EN: dict[tuple[str, ...], str] = {
    ("almost", "all"): MOST,
    ("nearly", "all"): MOST,
    ("almost", "every"): MOST,
    ("nearly", "every"): MOST,
    ("almost", "always"): MOST,
    ("nearly", "always"): MOST,
    ("not", "all"): SOME,
    ("not", "every"): SOME,
    ("not", "always"): SOME,
    ("not", "many"): FEW,
    ("not", "much"): FEW,
    ("only", "a", "few"): FEW,
    ("hardly", "any"): FEW,
    ("a", "few"): SOME,
    ("a", "majority"): MOST,
    ("the", "majority"): MOST,
    ("a", "minority"): FEW,
    ("no", "one"): NONE,
    ("all",): ALL,
    ("every",): ALL,
    ("each",): ALL,
    ("always",): ALL,
    ("most",): MOST,
    ("mostly",): MOST,
    ("mainly",): MOST,
    ("largely",): MOST,
    ("primarily",): MOST,
    ("chiefly",): MOST,
    ("predominantly",): MOST,
    ("usually",): MOST,
    ("generally",): MOST,
    ("typically",): MOST,
    ("many",): MANY,
    ("often",): MANY,
    ("frequently",): MANY,
    ("numerous",): MANY,
    ("some",): SOME,
    ("several",): SOME,
    ("certain",): SOME,
    ("sometimes",): SOME,
    ("occasionally",): SOME,
    ("few",): FEW,
    ("rarely",): FEW,
    ("seldom",): FEW,
    ("none",): NONE,
    ("no",): NONE,
    ("never",): NONE,
    ("nobody",): NONE,
}
QUANT_ZH: dict[str, str] = {
    **dict.fromkeys(
        words("几乎所有 幾乎所有 几乎全部 幾乎全部 几乎每 幾乎每 绝大多数 絕大多數 绝大部分 絕大部分"), MOST
    ),
    **dict.fromkeys(words("大多数 大多數 大部分 多数 多數 大多 通常 一般 往往 占多数 佔多數"), MOST),
    **dict.fromkeys(
        words("所有 全部 一切 全体 全體 凡是 每个 每個 每位 每一 每 总是 總是 始终 始終 一直"), ALL
    ),
    **dict.fromkeys(words("很多 许多 許多 不少 大量 经常 經常 常常"), MANY),
    **dict.fromkeys(words("一部分 部分 一些 某些 有些 有的 若干 有时 有時 偶尔 偶爾"), SOME),
    **dict.fromkeys(words("少数 少數 少部分 很少 极少 極少 鲜少 鮮少"), FEW),
    **dict.fromkeys(words("没有任何 沒有任何 无一 無一"), NONE),
}
# adverbs among them: their verb may come before ("spreads mainly") or after ("rarely spreads")
FREQUENCY_EN = frozenset(
    words(
        """always usually often frequently sometimes occasionally rarely seldom never mostly mainly largely
        primarily chiefly predominantly typically generally"""
    )
)
# which classes a paraphrase may swap for each other
QUANT_COMPATIBLE = frozenset({(MANY, SOME), (SOME, MANY)})

# --- modality ----------------------------------------------------------------------------

FACT, FUTURE, ABILITY, POSSIBLE, PROBABLE, ADVISORY, NECESSARY = (
    "fact",
    "future",
    "ability",
    "possible",
    "probable",
    "advisory",
    "necessary",
)
# a chain of cues ("may well", "必定能", "預計將") takes its strongest member
MODAL_RANK = {FACT: 0, FUTURE: 1, ABILITY: 2, POSSIBLE: 3, PROBABLE: 4, ADVISORY: 5, NECESSARY: 6}
MODAL_EN: dict[tuple[str, ...], str] = {
    ("ought", "to"): ADVISORY,
    ("have", "to"): NECESSARY,
    ("has", "to"): NECESSARY,
    ("had", "to"): NECESSARY,
    ("need", "to"): NECESSARY,
    ("needs", "to"): NECESSARY,
    ("required", "to"): NECESSARY,
    ("able", "to"): ABILITY,
    ("allowed", "to"): ABILITY,
    ("permitted", "to"): ABILITY,
    ("likely", "to"): PROBABLE,
    ("expected", "to"): PROBABLE,
    ("supposed", "to"): ADVISORY,
    ("may",): POSSIBLE,
    ("might",): POSSIBLE,
    ("could",): POSSIBLE,
    ("possibly",): POSSIBLE,
    ("perhaps",): POSSIBLE,
    ("maybe",): POSSIBLE,
    ("can",): ABILITY,
    ("probably",): PROBABLE,
    ("likely",): PROBABLE,
    ("should",): ADVISORY,
    ("must",): NECESSARY,
    ("definitely",): NECESSARY,
    ("certainly",): NECESSARY,
    ("surely",): NECESSARY,
    ("necessarily",): NECESSARY,
    ("will",): FUTURE,
    ("would",): FUTURE,
    ("shall",): FUTURE,
}
# "requires X to V", "allows X to V": the class applies to V
MODAL_EN_VERB_TO: dict[str, str] = {
    **dict.fromkeys(words("require requires required oblige obliges obliged force forces forced"), NECESSARY),
    **dict.fromkeys(words("allow allows allowed permit permits permitted let lets enable enables"), ABILITY),
    **dict.fromkeys(words("advise advises advised urge urges urged"), ADVISORY),
    **dict.fromkeys(words("expect expects"), PROBABLE),
}
MODAL_ZH: dict[str, str] = {
    **dict.fromkeys(
        words("必须 必須 必需 务必 務必 一定 必然 必定 肯定 势必 勢必 须 須 需要 要求 规定 規定 不得不"),
        NECESSARY,
    ),
    **dict.fromkeys(words("应该 應該 应当 應當 建议 建議"), ADVISORY),
    # 得 (děi, "have to") after a person; 得 after a verb (跑得快) is a particle
    **dict.fromkeys(words("们得 們得 你得 我得 他得 她得"), NECESSARY),
    **dict.fromkeys(words("预计 預計 预期 預期 估计 估計 可望 大概 很可能"), PROBABLE),
    **dict.fromkeys(words("可能 也许 也許 或许 或許 恐怕"), POSSIBLE),
    **dict.fromkeys(words("可以 能够 能夠 允许 允許 准许 准許 能"), ABILITY),
    **dict.fromkeys(words("将会 將會 将 將 会 會"), FUTURE),
    "要": NECESSARY,
}
# pairs of classes a faithful paraphrase may swap ("can borrow" / "may borrow"; "will meet" / "meets")
MODAL_COMPATIBLE = frozenset(
    {
        (FACT, FUTURE),
        (FUTURE, FACT),
        (FACT, ABILITY),
        (ABILITY, FACT),
        (ABILITY, POSSIBLE),
        (POSSIBLE, ABILITY),
    }
)

# --- direction (comparison) --------------------------------------------------------------
# word -> (dimension, sign): only cues of one dimension are compared ("lighter" is no opposite
# of "bigger"); amount, level and size share one dimension ("larger population" = "more people")

_EN_DIMENSIONS = {
    "level": (
        """more greater larger bigger higher increase increases increased increasing increasingly rise rises rose
        risen rising grow grows grew grown growing raise raises raised raising gain gains gained climb climbs
        climbed soar soared boost boosted exceed exceeds exceeded up above most highest largest biggest greatest
        expand expands expanded high large big""",
        """less fewer smaller lower decrease decreases decreased decreasing fall falls fell fallen falling drop
        drops dropped dropping decline declines declined declining reduce reduces reduced reducing cut cuts
        shrink shrinks shrank shrunk lose loses lost down below least lowest smallest fewest low small""",
    ),
    "speed": ("faster quicker fastest quickest quickly quick rapid rapidly", "slower slowest slowly slow"),
    "strength": (
        "stronger strongest strengthen strengthens strengthened strong",
        "weaker weakest weaken weakens weakened weak",
    ),
    "length": (
        "longer longest lengthen lengthens lengthened outlive outlives outlived long",
        "shorter shortest shorten shortens shortened short",
    ),
    "weight": ("heavier heaviest", "lighter lightest"),
    "age": ("older oldest", "younger youngest"),
    "time": ("later latest", "earlier earliest"),
    "difficulty": ("harder hardest", "easier easiest"),
    "slope": ("steeper steepest", "flatter flattest"),
    "heat": ("warmer hotter warmest hottest", "cooler colder coolest coldest"),
    "quality": ("better best", "worse worst"),
    "order": ("after", "before"),
}
DIRECTION_EN: dict[str, tuple[str, int]] = {
    word: (dim, sign)
    for dim, (up, down) in _EN_DIMENSIONS.items()
    for sign, words in ((1, up), (-1, down))
    for word in words.split()
}
# "impossible" / "possible": a negative prefix on an adjective the other side has bare
NEG_PREFIXES = ("un", "non", "in", "im", "il", "ir", "dis")
# words that only look prefixed ("import" is no "not port")
NEG_PREFIX_FALSE = frozenset(
    words(
        """import imports imported impact impacts implant imply implies improve improves improved income
        incomes inside insight insights input inform informs informed invent invents invented invest
        invests invested index install intend intends include includes indeed impress impose imposed
        discover discovers discovered display displays displayed dismiss dismissed discount discounts
        dispose disease diseases universe union unite united interest interests invest intern interns
        inflate inflation infect infected involve involves invite invites isolate unit units until
        distance dispatch disgust uniform uniforms"""
    )
)
# "A is larger than B": the compared pair; swapping it flips the direction
THAN_EN = frozenset({"than"})

_ZH_DIMENSIONS = {
    "level": (
        """增加 增长 增長 提高 上升 上涨 上漲 升高 升到 涨到 漲到 成长 成長 扩大 擴大 高于 高於 多于 多於 大于 大於
        超过 超過 调涨 調漲 变多 變多 增多 攀升 飙升 飆升 上扬 上揚 回升 走高 扩张 擴張 多 高 大""",
        """减少 減少 下降 降低 下跌 降到 跌到 衰退 缩小 縮小 低于 低於 少于 少於 小于 小於 不如 变少 變少
        下滑 滑落 回落 走低 减退 減退 萎缩 萎縮 下调 下調 调降 調降 少 低 小""",
    ),
    "speed": ("加快 变快 變快 快", "减慢 減慢 变慢 變慢 慢"),
    "length": ("拉长 拉長 延长 延長 长 長 久", "缩短 縮短 短"),
    "strength": ("增强 增強 强 強", "减弱 減弱 弱"),
    "weight": ("重", "轻 輕"),
    "quality": ("好", "差 坏 壞"),
    "difficulty": ("难 難", "易"),
    "slope": ("陡", "缓 緩"),
    "heat": ("热 熱", "冷"),
    "time": ("晚", "早"),
}
_ZH_ALL = {
    word: (dim, sign)
    for dim, (up, down) in _ZH_DIMENSIONS.items()
    for sign, words in ((1, up), (-1, down))
    for word in words.split()
}
DIRECTION_ZH = {w: v for w, v in _ZH_ALL.items() if len(w) > 1}
# one-character adjectives count after a degree word (更多, 越高, 最快, 略低, 比X大, 多得多)
ADJ_ZH = {w: v for w, v in _ZH_ALL.items() if len(w) == 1}
DEGREE_ZH = (
    "更加",
    "越来越",
    "越來越",
    "比较",
    "比較",
    "更",
    "越",
    "最",
    "略",
    "稍",
    "较",
    "較",
    "太",
    "还",
    "還",
)

# --- masks: Chinese words that hold a cue character but are no cue ------------------------

MASK_ZH = tuple(
    sorted(
        set(
            words("""不过 不過 不同 不断 不斷 不久 不少 不仅 不僅 不但 不论 不論 不管 不然 不光 不只 非常 非洲 未来 未來
            无论 無論 无数 無數 无限 無限 别人 別人 特别 特別 区别 區別 分别 分別 类别 類別 级别 級別 告别 告別 差别
            差別 性别 性別 个别 個別 识别 識別 辨别 辨別 鉴别 鑑別 否则 否則 是否 能否 可否 与否 與否 莫名 莫过 莫過
            能量 能力 功能 性能 智能 本能 技能 体能 體能 动能 動能 光能 热能 熱能 电能 電能 太阳能 太陽能 核能
            能源 效能 潜能 潛能 产能 產能 节能 節能 储能 儲能 可能性 社会 社會 会议 會議 机会 機會 学会 學會 体会
            體會 协会 協會 大会 大會 国会 國會 会员 會員 省会 省會 开会 開會 约会 約會 宴会 宴會 聚会 聚會 都会 都會
            理会 理會 误会 誤會 奥运会 奧運會 冬奥会 冬奧會 博览会 博覽會 委员会 委員會 基金会 基金會 会长 會長 会场 會場
            主要 重要 只要 想要 要是 要么 要麼 摘要 要素 要点 要點 纲要 綱要 要害 紧要 緊要 必要 要闻 要聞 需要性
            可是 可见 可見 可靠 认可 認可 许可 許可 可口 可爱 可愛 可观 可觀 宁可 寧可 可怜 可憐 反应 反應 适应 適應
            对应 對應 供应 供應 效应 效應 回应 回應 响应 響應 应对 應對 答应 答應 感应 感應 相应 相應 应用 應用
            所需 一定程度 一定的 将军 將軍 将来 將來 即将 即將 一般来说 一般來說 总之 總之 一直到 不得了
            每天 每日 每年 每月 每周 每週 每晚 每次 每小时 每小時 每分钟 每分鐘 每秒 每星期 每逢 一直在
            得到 得出 得知 得以 得分 获得 獲得 取得 使得 值得 记得 記得 觉得 覺得 懂得 显得 顯得 难得 難得 只好 好像 好比 最好 差不多 差异 差異 差别""")
        ),
        key=len,
        reverse=True,
    )
)
