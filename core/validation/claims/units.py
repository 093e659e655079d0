"""Units a number can carry, with their dimension and factor to a base unit, English and
Chinese; currencies; the words that bound a number ("at least", 不到) or make it approximate."""

from __future__ import annotations

from core.validation.claims.lexicon import words

_YEAR = 31_557_600.0
_TIME = {
    **dict.fromkeys(words("second seconds sec secs s 秒 秒钟 秒鐘"), (1.0, "seconds")),
    **dict.fromkeys(words("minute minutes min mins 分钟 分鐘"), (60.0, "minutes")),
    **dict.fromkeys(
        words("hour hours hr hrs h 小时 小時 钟头 鐘頭 个小时 個小時 个钟头 個鐘頭"), (3600.0, "hours")
    ),
    **dict.fromkeys(words("day days 天 日"), (86400.0, "days")),
    **dict.fromkeys(words("night nights 晚 夜"), (86400.0, "nights")),
    **dict.fromkeys(
        words("week weeks 周 週 星期 个星期 個星期 礼拜 禮拜 个礼拜 個禮拜"), (604800.0, "weeks")
    ),
    **dict.fromkeys(words("fortnight fortnights"), (1209600.0, "weeks")),
    **dict.fromkeys(words("month months 个月 個月"), (_YEAR / 12, "months")),
    **dict.fromkeys(words("year years yr yrs 年"), (_YEAR, "years")),
    **dict.fromkeys(words("decade decades"), (10 * _YEAR, "years")),
    **dict.fromkeys(words("century centuries 世纪 世紀"), (100 * _YEAR, "years")),
}
_LENGTH = {
    **dict.fromkeys(words("mm millimetre millimetres millimeter millimeters 毫米 公厘"), (0.001, "mm")),
    **dict.fromkeys(words("cm centimetre centimetres centimeter centimeters 厘米 公分"), (0.01, "cm")),
    **dict.fromkeys(words("m metre metres meter meters 米 公尺"), (1.0, "m")),
    **dict.fromkeys(words("km kilometre kilometres kilometer kilometers 公里 千米"), (1000.0, "km")),
    **dict.fromkeys(words("mile miles mi 英里 哩"), (1609.344, "miles")),
    **dict.fromkeys(words("foot feet ft 英尺 呎"), (0.3048, "feet")),
    **dict.fromkeys(words("inch inches 英寸 吋"), (0.0254, "inches")),
    **dict.fromkeys(words("yard yards yd"), (0.9144, "yards")),
}
_MASS = {
    **dict.fromkeys(words("mg milligram milligrams 毫克"), (1e-6, "mg")),
    **dict.fromkeys(words("g gram grams 克 公克"), (1e-3, "g")),
    **dict.fromkeys(words("kg kilogram kilograms kilo kilos 公斤 千克"), (1.0, "kg")),
    **dict.fromkeys(words("tonne tonnes ton tons 吨 噸 公吨 公噸"), (1000.0, "tonnes")),
    **dict.fromkeys(words("lb lbs 磅"), (0.45359237, "lb")),
    **dict.fromkeys(words("ounce ounces oz 盎司"), (0.028349523, "oz")),
}
_MONEY = {
    **dict.fromkeys(words("$ dollar dollars usd 美元 美金"), (1.0, "USD")),
    **dict.fromkeys(words("£ pound pounds gbp sterling 英镑 英鎊"), (1.0, "GBP")),
    **dict.fromkeys(words("€ euro euros eur 欧元 歐元"), (1.0, "EUR")),
    **dict.fromkeys(words("¥ yen jpy 日元 日圓 日圆"), (1.0, "JPY")),
    **dict.fromkeys(words("yuan rmb cny renminbi 元 块 塊 人民币 人民幣"), (1.0, "yuan")),
    **dict.fromkeys(words("港元 港币 港幣"), (1.0, "HKD")),
}
_AREA = {
    **dict.fromkeys(words("平方米 平方公尺"), (1.0, "m²")),
    **dict.fromkeys(words("平方公里 平方千米"), (1e6, "km²")),
    **dict.fromkeys(words("平方英里"), (2.589988e6, "square miles")),
    **dict.fromkeys(words("公顷 公頃 hectare hectares ha"), (1e4, "hectares")),
    **dict.fromkeys(words("acre acres 英亩 英畝"), (4046.8564, "acres")),
}
_OTHER = {
    **dict.fromkeys(words("岁 歲"), ("age", 1.0, "years old")),
    **dict.fromkeys(words("°c celsius 摄氏度 攝氏度"), ("temp_c", 1.0, "°C")),
    **dict.fromkeys(words("°f fahrenheit 华氏度 華氏度"), ("temp_f", 1.0, "°F")),
}
UNITS: dict[str, tuple[str, float, str]] = {
    **{k: ("time", f, label) for k, (f, label) in _TIME.items()},
    **{k: ("length", f, label) for k, (f, label) in _LENGTH.items()},
    **{k: ("mass", f, label) for k, (f, label) in _MASS.items()},
    **{k: ("area", f, label) for k, (f, label) in _AREA.items()},
    **{k: ("money:" + label, f, label) for k, (f, label) in _MONEY.items()},
    **_OTHER,
}
CURRENCY_SYMBOLS = frozenset("$£€¥")
# Chinese units and classifiers, longest first, as read after a number
ZH_UNIT_WORDS = sorted(
    (k for k in UNITS if not k.isascii() and k not in ("日", "年", "周", "週")), key=len, reverse=True
)
ZH_CLASSIFIERS = tuple(
    sorted(
        words("""个 個 名 位 人次 人 种 種 次 张 張 只 隻 条 條 家 所 座 台 辆 輛 头 頭 件 篇 本 部 册 冊 场 場 项 項 步
        层 層 户 戶 间 間 届 屆 批 组 組 份 颗 顆 棵 匹 双 雙 套 支 枚 片 段 股 勝 胜 票 分 阶段 階段 节 節 章 页 頁
        号 號 所 倍 成 度"""),
        key=len,
        reverse=True,
    )
)

LOWER_EN = (
    ("at", "least"),
    ("more", "than"),
    ("over",),
    ("above",),
    ("exceeding",),
    ("a", "minimum", "of"),
    ("no", "fewer", "than"),
    ("no", "less", "than"),
    ("upwards", "of"),
    ("older", "than"),
    ("greater", "than"),
)
UPPER_EN = (
    ("at", "most"),
    ("up", "to"),
    ("under",),
    ("below",),
    ("less", "than"),
    ("fewer", "than"),
    ("no", "more", "than"),
    ("a", "maximum", "of"),
    ("as", "many", "as"),
    ("as", "much", "as"),
    ("younger", "than"),
    ("within",),
)
APPROX_EN = frozenset(words("about around roughly approximately nearly almost some circa approx ~ c"))
LOWER_ZH = tuple(words("超过 超過 逾 多于 多於 高于 高於 大于 大於 至少 不少于 不少於 不低于 不低於"))
UPPER_ZH = tuple(words("不足 不到 少于 少於 低于 低於 小于 小於 最多 至多 未满 未滿 不超过 不超過 不满 不滿"))
LOWER_ZH_AFTER = ("以上", "多", "余", "餘")
UPPER_ZH_AFTER = ("以下", "以内", "以內", "之内", "之內")
APPROX_ZH = tuple(words("大约 大約 将近 將近 大概 差不多 约 約 近"))
APPROX_ZH_AFTER = ("左右", "上下")

RATE_EN = {
    "daily": "day",
    "weekly": "week",
    "monthly": "month",
    "yearly": "year",
    "annually": "year",
    "hourly": "hour",
    "nightly": "night",
}
