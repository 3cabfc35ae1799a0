package io.conduit.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.TextContent;
import io.conduit.agent.message.UserMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A user message's images reach a model that reads images as image parts, and one that does not as a note. */
class LangChain4jRequestsImagesTest {

    private static final UserMessage ASKED = new UserMessage("m", "What does the chart show?",
            List.of("https://example.com/chart.png", "data:image/png;base64,iVBORw0KGgo="));

    @Test
    void imagesBecomeImageParts() {
        var u = LangChain4jRequests.user(ASKED, true);
        assertThat(u.contents()).hasSize(3);
        assertThat(((TextContent) u.contents().get(0)).text()).isEqualTo("What does the chart show?");
        assertThat(((ImageContent) u.contents().get(1)).image().url().toString()).isEqualTo("https://example.com/chart.png");
        ImageContent inline = (ImageContent) u.contents().get(2);
        assertThat(inline.image().base64Data()).isEqualTo("iVBORw0KGgo=");
        assertThat(inline.image().mimeType()).isEqualTo("image/png");
    }

    @Test
    void aModelThatReadsNoImagesIsToldOneWasSent() {
        var u = LangChain4jRequests.user(ASKED, false);
        assertThat(u.singleText()).isEqualTo("What does the chart show?\n[2 image(s) attached; this model does not read images]");
    }

    @Test
    void aTextOnlyMessageIsPlainText() {
        assertThat(LangChain4jRequests.user(new UserMessage("m", "hi"), true).singleText()).isEqualTo("hi");
    }
}
