"""After the reply: extractors and summarizers (rule-based by default, LLM when configured)."""
