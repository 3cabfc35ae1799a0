package io.conduit.files;

import io.smallrye.mutiny.Multi;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A stream of chunks read as an {@link InputStream}, for parsers that pull. Blocks while the next chunk arrives:
 * use it on a worker thread only. One chunk is requested ahead of the reader, so at most two wait in memory;
 * closing it early cancels the stream (the store stops reading and releases what it holds).
 */
public final class ChunkedInputStream extends InputStream {

    private static final Object END = new Object();

    private final LinkedBlockingQueue<Object> arrived = new LinkedBlockingQueue<>();
    private volatile Flow.Subscription subscription;
    private byte[] current = new byte[0];
    private int pos;
    private boolean ended;

    public ChunkedInputStream(Multi<byte[]> content) {
        content.subscribe().withSubscriber(new Flow.Subscriber<byte[]>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscription = s;
                s.request(2);
            }

            @Override
            public void onNext(byte[] chunk) {
                arrived.add(chunk);
            }

            @Override
            public void onError(Throwable failure) {
                arrived.add(failure);
            }

            @Override
            public void onComplete() {
                arrived.add(END);
            }
        });
    }

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return current[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, current.length - pos);
        System.arraycopy(current, pos, b, off, n);
        pos += n;
        return n;
    }

    private boolean fill() throws IOException {
        while (pos >= current.length) {
            if (ended) {
                return false;
            }
            Object next;
            try {
                next = arrived.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                throw new InterruptedIOException("interrupted while the file was read");
            }
            if (next == END) {
                ended = true;
                return false;
            }
            if (next instanceof Throwable failure) {
                ended = true;
                throw new IOException("the file could not be read: " + failure.getMessage(), failure);
            }
            current = (byte[]) next;
            pos = 0;
            subscription.request(1);
        }
        return true;
    }

    @Override
    public void close() {
        if (!ended) {
            ended = true;
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }
        arrived.clear();
    }
}
