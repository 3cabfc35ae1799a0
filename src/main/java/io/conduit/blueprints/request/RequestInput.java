package io.conduit.blueprints.request;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The {@code input} bucket: the request as it came, not changed by any node. {@code is_api}: a single-shot caller
 * that cannot answer a question, so the graph never interrupts for one.
 */
public record RequestInput(String message, @JsonProperty("request_id") String requestId, @JsonProperty("user_id") String userId,
                           String language, @JsonProperty("is_api") Boolean isApi) {

    public static final RequestInput EMPTY = new RequestInput("", null, null, null, false);

    public RequestInput {
        message = message == null ? "" : message;
        isApi = Boolean.TRUE.equals(isApi);
    }

    public boolean api() {
        return isApi;
    }
}
