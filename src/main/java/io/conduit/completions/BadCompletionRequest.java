package io.conduit.completions;

/** A chat completion request refused before anything is written: its error as OpenAI would answer it. */
final class BadCompletionRequest extends RuntimeException {

    private final transient OpenAiError error;

    BadCompletionRequest(OpenAiError error) {
        super(error.message(), null, false, false);
        this.error = error;
    }

    static BadCompletionRequest invalid(String param, String code, String message) {
        return new BadCompletionRequest(OpenAiError.invalid(param, code, message));
    }

    OpenAiError error() {
        return error;
    }
}
