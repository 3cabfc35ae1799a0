package io.conduit.runs.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InvalidInputException;
import org.junit.jupiter.api.Test;

/** Images attached to a user message: read from LangChain's and OpenAI's content blocks, written back as blocks, checkpointed. */
class LangChainMessagesImagesTest {

    @Test
    void imageBlocksOfEachShapeBecomeTheMessagesImages() throws Exception {
        ChatMessage m = LangChainMessages.fromJson(JsonCodec.MAPPER.readTree("""
                {"role":"user","id":"m1","content":[{"type":"text","text":"What is in this chart?"},
                 {"type":"image_url","image_url":{"url":"https://example.com/a.png"}},
                 {"type":"image_url","image_url":"https://example.com/b.png"},
                 {"type":"image","source_type":"base64","mime_type":"image/jpeg","data":"AAEC"},
                 {"type":"image","url":"https://example.com/c.png"}]}"""), "input.messages[0]");
        UserMessage u = (UserMessage) m;
        assertThat(u.content()).isEqualTo("What is in this chart?");
        assertThat(u.images()).containsExactly("https://example.com/a.png", "https://example.com/b.png", "data:image/jpeg;base64,AAEC",
                "https://example.com/c.png");
        assertThat(LangChainMessages.toJson(u).get("content").toString()).isEqualTo("[{\"type\":\"text\",\"text\":\"What is in this chart?\"},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"https://example.com/a.png\"}},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"https://example.com/b.png\"}},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/jpeg;base64,AAEC\"}},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"https://example.com/c.png\"}}]");
    }

    @Test
    void aTextOnlyMessageIsWrittenAndStoredAsBefore() throws Exception {
        UserMessage u = new UserMessage("m2", "hello");
        assertThat(LangChainMessages.toJson(u).get("content").asText()).isEqualTo("hello");
        String stored = JsonCodec.MAPPER.writerFor(ChatMessage.class).writeValueAsString(u);
        assertThat(stored).doesNotContain("images");
        assertThat(JsonCodec.MAPPER.readValue(stored, ChatMessage.class)).isEqualTo(u);
        UserMessage withImage = new UserMessage("m3", "look", java.util.List.of("https://example.com/a.png"));
        String storedImage = JsonCodec.MAPPER.writerFor(ChatMessage.class).writeValueAsString(withImage);
        assertThat(JsonCodec.MAPPER.readValue(storedImage, ChatMessage.class)).isEqualTo(withImage);
    }

    @Test
    void anImageThatIsNotAUrlIsRefusedNamingTheBlock() {
        assertThatThrownBy(() -> LangChainMessages.fromJson(JsonCodec.MAPPER.readTree("""
                {"role":"user","content":[{"type":"text","text":"x"},{"type":"image_url","image_url":{"url":"file:///etc/passwd"}}]}"""),
                "input.messages[0]")).isInstanceOf(InvalidInputException.class).hasMessageContaining("input.messages[0].content[1]");
    }
}
