package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.http.ClientJson;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Every JSON body a REST resource reads goes through {@link ClientJson}'s check, whatever the resource: its bytes are
 * UTF-8 (strictly: Jackson would read an encoded surrogate or a two-byte NUL as characters) and its text is storable,
 * else 422 {@code invalid_input} naming the field. The body is already in memory (the resources are non-blocking, and
 * it is bounded by {@code conduit.api.max-body-bytes}), so reading it again costs no I/O.
 */
@Provider
public class CheckedJsonBodies implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (!JsonNode.class.isAssignableFrom(context.getType())) {
            return context.proceed();
        }
        byte[] body = context.getInputStream().readAllBytes();
        ClientJson.checkUtf8(body);
        context.setInputStream(new ByteArrayInputStream(body));
        Object read = context.proceed();
        if (read instanceof JsonNode tree) {
            ClientJson.check(tree);
        }
        return read;
    }
}
