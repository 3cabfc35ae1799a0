package io.conduit.llm;

import java.util.HashMap;
import java.util.Map;

/** Estimated cost of a call from the configured USD prices per million tokens. */
public final class PriceTable {

    public record Price(double inputPerMillion, double outputPerMillion) {
    }

    private final Map<String, Price> prices;

    public PriceTable(Map<String, Price> prices) {
        this.prices = Map.copyOf(prices);
    }

    public static PriceTable from(LlmConfig config) {
        Map<String, Price> prices = new HashMap<>();
        config.prices().forEach((model, p) -> prices.put(model, new Price(p.inputPerMillion(), p.outputPerMillion())));
        return new PriceTable(prices);
    }

    /**
     * The requested model's price first: servers often report a dated variant (gpt-4o-mini-2024-07-18) of the
     * name that was asked for. 0 when neither name has a price.
     */
    public double costUsd(String requestedModel, String reportedModel, int inputTokens, int outputTokens) {
        Price price = requestedModel == null ? null : prices.get(requestedModel);
        if (price == null && reportedModel != null) {
            price = prices.get(reportedModel);
        }
        if (price == null) {
            return 0;
        }
        return (inputTokens * price.inputPerMillion() + outputTokens * price.outputPerMillion()) / 1_000_000d;
    }
}
