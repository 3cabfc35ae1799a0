package io.conduit.llm;

/**
 * The provider sent an error object inside a stream that had started with HTTP 200 ({@code data: {"error":{...}}}).
 * {@code code} is the HTTP-like status the provider gave with it, when it gave one.
 */
public class ProviderStreamError extends RuntimeException {

    private final Integer code;

    public ProviderStreamError(String message, Integer code) {
        super(message);
        this.code = code;
    }

    public Integer code() {
        return code;
    }
}
