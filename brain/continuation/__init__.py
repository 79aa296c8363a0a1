"""Whether a message in a thread continues the thread's record: a learned, calibrated model
(`brain.continuation.model`), read by the conversation (`brain.conversation.thread`)."""
