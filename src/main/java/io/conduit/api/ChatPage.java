package io.conduit.api;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The chat page's HTML (src/main/resources/META-INF/resources/chat/index.html), read once at start-up so that
 * {@code GET /} answers it from memory on the event loop; its scripts and styles are static resources under /chat/.
 */
@Startup
@ApplicationScoped
public class ChatPage {

    static final String RESOURCE = "META-INF/resources/chat/index.html";

    private final String html;

    public ChatPage() {
        try (InputStream in = ChatPage.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the application");
            }
            html = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String html() {
        return html;
    }
}
