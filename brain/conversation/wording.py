"""What the conversation itself says around a decision (the headline of a reroute, the
rationale line, feedback acknowledgements, the terminal's hints), in English and Chinese, as
data: one table, so that a Chinese asker gets no English sentence and a new phrase is added in
both languages at once. The controllers word their own results (`controllers.ticket_replies`);
the Slack adapter's chrome is `bot.wording`."""

from __future__ import annotations

from dataclasses import dataclass

from core.plans import ROLE_WORDS_ZH

__all__ = [
    "PHRASES",
    "PLAN_WORDS_ZH",
    "READING_WORDS_ZH",
    "SIGNAL_WORDS_ZH",
    "TIERS_ZH",
    "URGENCY_ZH",
    "Why",
    "because",
    "say",
]

#: key -> (English, Chinese); `{name}` fields are filled by `say`.
PHRASES: dict[str, tuple[str, str]] = {
    "rerouted": ("Rerouted to {name}.", "已改由{name}处理。"),
    "chosen": ("chosen by a person (the brain had {name})", "由人工选定（系统原判：{name}）"),
    "confidence": ("confidence {value}", "置信度 {value}"),
    "tier": ("{tier} path", "{tier}路径"),
    "signals": ("top signals: {signals}", "主要信号：{signals}"),
    "urgency": ("urgency {urgency}", "紧急程度：{urgency}"),
    "none_of_these": ("None of these", "都不是"),
    "confirmed": ("Thanks, recorded that {name} was right.", "谢谢，已记录：{name}处理得对。"),
    "rejected": (
        "Recorded that {name} was wrong. Where should it go?",
        "已记录：{name}处理得不对。应该转给谁？",
    ),
    "still_waiting": (
        "Nothing is filed yet: I am waiting for you to say where this goes.",
        "还没有提交任何工单：我在等你确定由谁处理。",
    ),
    "none_fit": (
        "Understood: none of those fit. I recorded that and did not route the message; please "
        "rephrase it or name the team that should take it.",
        "明白，这些都不合适。我已记录，消息没有转出；请换个说法，或告诉我应该由哪个团队处理。",
    ),
    "solved": ("Thanks, recorded that this solved it.", "谢谢，已记录：问题已解决。"),
    "pick_controller": ("(answer with a number or a controller name)", "（回复编号或处理方名称）"),
    "pick": ("(answer with a number)", "（回复编号）"),
    "decision_line": (
        "decision {id}: /why, /right, /wrong CONTROLLER",
        "决策 {id}：/why 查看原因，/right 确认，/wrong 处理方 改派",
    ),
    "resolve_line": (
        "a person can resolve it: /resolve 'this is for CONTROLLER' or what they did {id}",
        "可由人工解决：/resolve '转给 处理方' 或写下处理办法 {id}",
    ),
    "dynamic_plan": (
        "Unknown request: planned by Draft-Critique-Refine in {rounds} round(s), "
        "{topology} plan from {source}: {roles}.",
        "未见过的请求：经草拟-评审-修订 {rounds} 轮规划，"
        "{topology}方案（来源：{source}）：{roles}。",
    ),
    # Why a turn in a thread went onto its record (the follow-up's rationale line).
    "gives_field": ("it gives the {field} of {record}", "给出了 {record} 的{field}"),
    "asks_how_it_stands": ("it asks how {record} stands", "询问 {record} 的进展"),
    "refers_back": ("it refers back to {record}", "指回 {record}"),
    "short_report": ("a short report about {record}", "关于 {record} 的简短报告"),
    "short_detail": ("a short detail added to {record}", "给 {record} 补充的简短细节"),
    "answers_question": (
        "it answers the question for {field} asked in {decision}",
        "回答了 {decision} 中对{field}的提问",
    ),
    "short_answer": (
        "a short reply to the question for {field} asked in {decision}",
        "简短回复了 {decision} 中对{field}的提问",
    ),
    "threads_record": ("the thread's record: {reading}", "本会话的记录：{reading}"),
    "unsure_which_record": (
        "unsure whether this is about {record}: {reading}",
        "不确定这条消息是否关于 {record}：{reading}",
    ),
    "thread_is_about": ("the thread is about {record}", "本会话讨论的是 {record}"),
    "continuation_reading": (
        "continues the record with probability {p} ({shown})",
        "延续该记录的概率为 {p}（{shown}）",
    ),
    # A reply that gave none of what the bot asked for a record (`conversation.asking`).
    "ask_again": (
        "{record} still has no {fields}, so it cannot go ahead yet. Reply with it here "
        "(“the {field} is …”); if you don't know, say so and {record} goes ahead without it.",
        "{record} 还缺少{fields}，暂时无法继续。请在这里直接回复（“{field}是……”）；"
        "如果不清楚，告诉我一声，{record} 会先按现有信息处理。",
    ),
    "went_ahead": (
        "{record} goes ahead without the {fields}: the people handling it will ask you if they "
        "need it. You can still add it here any time (“the {field} is …”).",
        "{record} 先按现有信息处理，不再等{fields}：处理人员需要时会联系你。"
        "之后想补充，随时在这里回复（“{field}是……”）。",
    ),
    "escalated": (
        "ESCALATED: urgency {urgency}; in Slack on-call would be paged now.",
        "已升级：紧急程度 {urgency}；在 Slack 中此时会通知值班人员。",
    ),
}

#: Signal name -> its Chinese word (a signal not listed keeps its own word).
SIGNAL_WORDS_ZH = {
    "keyword": "关键词",
    "semantic": "语义",
    "knowledge": "知识库",
    "session": "本次对话",
    "memory": "历史反馈",
}
TIERS_ZH = {"fast": "快速", "verify": "验证", "dynamic": "动态"}
#: A plan's topology, source and roles in Chinese (the dynamic path's plan line).
PLAN_WORDS_ZH = {
    "single": "单一",
    "pipeline": "流水线",
    "parallel": "并行",
    "hook": "通用能力",
    "fragments": "片段",
    "memory": "历史经验",
    "kb-standard": "知识库规范",
    "llm": "大模型",
    "composition": "组合",
    "person": "人工处理记录",
    **ROLE_WORDS_ZH,
}
#: The continuation model's classes (`brain.continuation.model.CLASSES`) in Chinese.
READING_WORDS_ZH = {
    "new": "新事项",
    "update": "补充",
    "answer": "回答",
    "status": "问进展",
    "closing": "结束语",
    "question": "提问",
    "resolved": "已解决",
}
URGENCY_ZH = {"low": "低", "medium": "中", "high": "高", "critical": "紧急"}


def say(key: str, chinese: bool, **fields: object) -> str:
    """The phrase `key` in the asker's language, its fields filled."""
    english, chinese_text = PHRASES[key]
    return (chinese_text if chinese else english).format(**fields)


@dataclass(frozen=True, slots=True)
class Why:
    """A reason worded in both languages at once: where it is made the asker's language is
    not known, and the rationale line that shows it must be in that language (a Chinese
    follow-up's rationale read "跟进：…（unsure whether this is about …）"). The English
    wording is the decision path's (`str`)."""

    english: str
    chinese: str

    def text(self, chinese: bool) -> str:
        """The reason in the asker's language."""
        return self.chinese if chinese else self.english

    def then(self, other: Why) -> Why:
        """This reason followed by `other`."""
        return Why(f"{self.english}; {other.english}", f"{self.chinese}；{other.chinese}")

    def __str__(self) -> str:
        return self.english


def because(key: str, **fields: object) -> Why:
    """The phrase `key` as a reason in both languages; a field that is itself a `Why` is put
    in each language's own words."""
    english = {k: v.english if isinstance(v, Why) else v for k, v in fields.items()}
    chinese = {k: v.chinese if isinstance(v, Why) else v for k, v in fields.items()}
    return Why(say(key, False, **english), say(key, True, **chinese))
