"""Text features shared by the knowledge base and the decision chain: language detection,
character n-gram sparse vectors, and the dense MiniLM embedder."""
