package io.conduit.llm;

/** What every attempt of one call shares: who is asked, for which model, the prices, and when the call began. */
record CallContext(String provider, String requestedModel, PriceTable prices, long startNanos) {
}
