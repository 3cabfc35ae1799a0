package io.conduit.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.langchain4j.exception.HttpException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;

/**
 * What went wrong with a model call, in words for the run's error event, and whether trying again could help
 * (rate limits, server errors, connection trouble, a stream cut short). LangChain4j and the HTTP clients wrap the
 * cause in a few layers, so the whole chain is searched.
 */
record CallFailure(String description, boolean transientFailure) {

    static CallFailure of(Throwable failure) {
        // Jackson's parse errors are IOExceptions: without this a bad chunk read as "connection failed", followed by
        // the parser's location and LangChain4j's class names over several lines
        JsonProcessingException badJson = find(failure, JsonProcessingException.class);
        if (badJson != null) {
            return new CallFailure("a chunk of the stream could not be read (" + firstLine(badJson.getOriginalMessage()) + ")",
                    true);
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof HttpException http) {
                int status = http.statusCode();
                String message = ProviderErrorBody.message(http.getMessage());
                return new CallFailure("HTTP " + status + (message.isEmpty() ? "" : ": " + message),
                        status == 408 || status == 429 || status >= 500);
            }
            if (t instanceof ProviderStreamError error) {
                Integer code = error.code();
                return new CallFailure("error in the stream" + (code == null ? "" : " (" + code + ")") + ": "
                        + error.getMessage(), code != null && (code == 429 || code >= 500));
            }
            if (t instanceof BrokenStream broken) {
                return new CallFailure(broken.getMessage(), true);
            }
            if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
                return new CallFailure("cannot connect: " + describe(t), true);
            }
            if (t instanceof java.util.concurrent.TimeoutException || t instanceof java.net.http.HttpTimeoutException
                    || t instanceof dev.langchain4j.exception.TimeoutException) {
                return new CallFailure("timed out: " + describe(t), true);
            }
            if (t instanceof IOException || t instanceof io.vertx.core.http.HttpClosedException) {
                return new CallFailure("connection failed: " + describe(t), true);
            }
        }
        return new CallFailure(describe(failure), false);
    }

    private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    /** One line: the description ends up in an SSE event's message, which clients show as it is. */
    private static String describe(Throwable t) {
        String message = t.getMessage();
        return message == null || message.isBlank() ? t.getClass().getSimpleName() : firstLine(message);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int end = message.indexOf('\n');
        return (end < 0 ? message : message.substring(0, end)).strip();
    }
}
