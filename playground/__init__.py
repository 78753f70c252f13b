"""A local Telegram: a Bot API server kept in memory, with a control API for tests, the
playground page and the benchmarks (see README.md)."""
