package io.conduit.tools;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read up to a limit: past it the rest is not read (the exchange is cancelled), so a service that
 * answers with megabytes costs no more memory than the part the model would see anyway. Decoded as UTF-8.
 */
final class CappedBody implements HttpResponse.BodySubscriber<CappedBody.Body> {

    /** The text kept, and whether there was more. */
    record Body(String text, boolean truncated) {
    }

    private final int maxBytes;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<Body> result = new CompletableFuture<>();
    private Flow.Subscription subscription;

    CappedBody(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    static HttpResponse.BodyHandler<Body> handler(int maxBytes) {
        return info -> new CappedBody(maxBytes);
    }

    @Override
    public CompletionStage<Body> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        // one list of buffers at a time: no more is buffered than is kept
        s.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (result.isDone()) {
            return; // cancelled at the limit; anything still in flight is dropped
        }
        for (ByteBuffer buffer : buffers) {
            int room = maxBytes - bytes.size();
            if (buffer.remaining() > room) {
                byte[] part = new byte[room];
                buffer.get(part);
                bytes.writeBytes(part);
                subscription.cancel();
                result.complete(new Body(text(), true));
                return;
            }
            byte[] all = new byte[buffer.remaining()];
            buffer.get(all);
            bytes.writeBytes(all);
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable failure) {
        result.completeExceptionally(failure);
    }

    @Override
    public void onComplete() {
        result.complete(new Body(text(), false));
    }

    private String text() {
        // a multi-byte character cut at the limit decodes to a replacement character, never an exception
        return StandardCharsets.UTF_8.decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
    }
}
