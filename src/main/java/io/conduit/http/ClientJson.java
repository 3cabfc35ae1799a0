package io.conduit.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.StorableText;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InvalidInputException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The one check of the JSON a client sends, on every door (the REST resources, the streaming routes, the thread
 * protocol, AG-UI, the AI SDK, chat completions; HTTP bodies and WebSocket frames): its bytes are UTF-8, strictly (a
 * lenient decoder turns bad bytes into U+FFFD, and reads an encoded surrogate or a two-byte NUL as if they were
 * characters), and none of its strings, keys included, holds text a store cannot keep ({@link StorableText}). Either
 * is an {@link InvalidInputException} (422) naming the field, or {@code body}, before anything reads the request.
 */
public final class ClientJson {

    private ClientJson() {
    }

    /**
     * A request body: checked bytes, parsed, checked text. Null or empty: null (each door says whether it needs one).
     * Not JSON: {@link JsonProcessingException}, which the doors answer as malformed.
     */
    public static JsonNode parse(byte[] body) throws JsonProcessingException {
        if (body == null || body.length == 0) {
            return null;
        }
        checkUtf8(body);
        JsonNode tree;
        try {
            tree = JsonCodec.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw e;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("reading bytes in memory", e);
        }
        check(tree);
        return tree;
    }

    /** A text already decoded (a WebSocket text frame, whose UTF-8 the transport checked): parsed, checked text. */
    public static JsonNode parse(String text) throws JsonProcessingException {
        JsonNode tree = JsonCodec.MAPPER.readTree(text);
        check(tree);
        return tree;
    }

    /** Throws {@link InvalidInputException} naming the first field whose text no store can keep. */
    public static void check(JsonNode tree) {
        StorableText.Problem p = StorableText.find(tree, "");
        if (p != null) {
            throw new InvalidInputException(p.path().isEmpty() ? "body" : p.path(), p.reason());
        }
    }

    /** Throws {@link InvalidInputException} ({@code body}) unless {@code bytes} are UTF-8, naming the first bad byte. */
    public static void checkUtf8(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(Math.clamp(bytes.length, 16, 8192)); // reused: only whether it decodes matters
        while (true) {
            // the end of input is given: a sequence cut short at the end is an error too
            CoderResult r = decoder.decode(in, out, true);
            if (r.isError()) {
                throw new InvalidInputException("body", "is not UTF-8: byte " + in.position() + " (0x"
                        + Integer.toHexString(bytes[in.position()] & 0xff) + ") does not decode");
            }
            if (r.isUnderflow()) {
                return;
            }
            out.clear();
        }
    }
}
