package io.conduit.runs.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A text delta's place in an event's JSON: the data is exactly what Jackson writes for the same object (so the wire
 * does not change), and the place holds the text, escaped.
 */
class RunEventTextTest {

    @Test
    void theDataIsWhatJacksonWritesAndThePlaceHoldsTheEscapedText() {
        for (String text : List.of("plain", "", "\"quoted\"", "back\\slash", "tab\tnew\nline\r", "\u0000\u0001\u001f", "é ü 中文", "😀",
                "\u2028\u2029", "</script>", "\uD83D")) {
            ArrayNode tuple = JsonCodec.MAPPER.createArrayNode();
            ObjectNode chunk = tuple.addObject().put("content", text).put("id", "m1");
            tuple.addObject().put("run_id", "r");
            String jackson = tuple.toString();
            String before = "[{\"content\":\"";
            String after = jackson.substring(jackson.indexOf("\",\"id\":\"m1\""));
            RunEvent e = RunEvent.withText(7, "r", "messages", "", "m1", before, text, after);
            assertThat(e.data()).as(text).isEqualTo(jackson);
            String escaped = e.data().substring(e.text().start(), e.text().end());
            assertThat(JsonCodec.MAPPER.createObjectNode().put("t", text).toString()).isEqualTo("{\"t\":\"" + escaped + "\"}");
            assertThat(chunk.get("content").asText()).isEqualTo(text);
        }
    }

    @Test
    void aTokenKeepsItsFrameSharedAndCountsOnlyItsOwnTextAgainstALogsBound() {
        RunEvent.TextFrame frame = new RunEvent.TextFrame("[{\"content\":\"" + "x".repeat(500), "\",\"id\":\"m1\"}]");
        RunEvent a = RunEvent.withText(1, "r", "messages", "", "m1", frame, "he said \"hi\"");
        RunEvent b = RunEvent.withText(1, "r", "messages", "", "m1", frame, "he said \"hi\"");
        assertThat(a.length()).isEqualTo(a.data().length());
        assertThat(a.retained()).isEqualTo("he said \\\"hi\\\"".length());
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isEqualTo(new RunEvent(1, "r", "messages", "", a.data(), a.text()));
        RunEvent whole = new RunEvent(2, "r", "values", "", "{\"messages\":[]}");
        assertThat(whole.retained()).isEqualTo(whole.length()).isEqualTo(whole.data().length());
    }

    @Test
    void aDocumentSerializedWithTheSlotGivesTheSameData() {
        String text = "say \"hi\"\n😀";
        ObjectNode frame = JsonCodec.MAPPER.createObjectNode().put("type", "event").put("seq", 9);
        frame.putObject("params").putObject("data").put("event", "content-block-delta").put("index", 0)
                .putObject("delta").put("type", "text-delta").put("text", RunEvent.TEXT_SLOT);
        RunEvent e = RunEvent.withTextIn(9, "r", "messages", "", "m1#0", frame.toString(), text);
        ((ObjectNode) frame.get("params").get("data").get("delta")).put("text", text);
        assertThat(e.data()).isEqualTo(frame.toString());
        assertThatThrownBy(() -> RunEvent.withTextIn(9, "r", "messages", "", "m1#0", "{}", text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theFiveArgumentFormHasNoText() {
        assertThat(new RunEvent(1, "r", "values", "", "{}").text()).isNull();
    }

    @Test
    void aPlaceOutsideTheDataIsRefused() {
        assertThatThrownBy(() -> new RunEvent(1, "r", "messages", "", "{}", new TextDelta("m", 1, 9)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
