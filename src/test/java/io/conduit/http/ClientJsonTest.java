package io.conduit.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.conduit.runs.InvalidInputException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The check of every client's JSON: strict UTF-8 bytes, storable text, the field named. */
class ClientJsonTest {

    private static byte[] bytes(String before, int[] bad, String after) {
        byte[] a = before.getBytes(StandardCharsets.UTF_8);
        byte[] c = after.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[a.length + bad.length + c.length];
        System.arraycopy(a, 0, out, 0, a.length);
        for (int i = 0; i < bad.length; i++) {
            out[a.length + i] = (byte) bad[i];
        }
        System.arraycopy(c, 0, out, a.length + bad.length, c.length);
        return out;
    }

    @Test
    void bytesThatAreNotUtf8AreRefusedNamingTheBody() {
        String before = "{\"metadata\": {\"note\": \"a";
        for (int[] bad : new int[][]{{0xff}, {0xed, 0xa0, 0x80}, {0xc0, 0x80}, {0xe2, 0x82}, {0xf4, 0x90, 0x80, 0x80}, {0x80}}) {
            assertThatThrownBy(() -> ClientJson.parse(bytes(before, bad, "b\"}}")))
                    .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("body: is not UTF-8: byte " + before.length());
        }
        // cut short at the very end
        assertThatThrownBy(() -> ClientJson.checkUtf8(bytes("\"a", new int[]{0xe2, 0x82}, ""))).hasMessageContaining("byte 2");
    }

    @Test
    void utf8OfEveryLengthIsRead() throws JsonProcessingException {
        String text = "é 中 \ud83d\ude00 " + "x".repeat(20_000) + " 中"; // longer than the decoder's buffer
        assertThat(ClientJson.parse(("{\"t\": \"" + text + "\"}").getBytes(StandardCharsets.UTF_8)).get("t").asText()).isEqualTo(text);
        assertThat(ClientJson.parse(new byte[0])).isNull();
        assertThat(ClientJson.parse("\"\u4e2d\"".getBytes(StandardCharsets.UTF_8)).asText()).isEqualTo("中");
    }

    @Test
    void unstorableTextIsRefusedNamingItsField() {
        assertThatThrownBy(() -> ClientJson.parse("{\"input\": {\"messages\": [{\"content\": \"a\\u0000b\"}]}}"))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("input.messages[0].content: contains a NUL");
        assertThatThrownBy(() -> ClientJson.parse("{\"k\\udc00\": 1}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("body: has a key that contains a lone surrogate");
        assertThatThrownBy(() -> ClientJson.parse("\"\\ud800\"")).hasMessageStartingWith("body: contains a lone surrogate");
    }

    @Test
    void notJsonIsLeftToTheDoorsToAnswer() {
        assertThatThrownBy(() -> ClientJson.parse("{\"a\": ".getBytes(StandardCharsets.UTF_8))).isInstanceOf(JsonProcessingException.class);
    }
}
