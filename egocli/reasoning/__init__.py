"""The reasoning core: temporal scope, retrieval, T-CoT windows, HCC summaries, answers and voting."""
