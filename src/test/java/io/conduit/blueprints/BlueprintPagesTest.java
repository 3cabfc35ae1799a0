package io.conduit.blueprints;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.runs.graphs.GraphRegistry;
import io.conduit.runs.graphs.RegisteredGraph;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every served graph has a page, {@code docs/blueprints/<graph_id>.md}, whose drawing is the compiled graph's Mermaid
 * flowchart between the markers. Run with {@code -Dconduit.blueprints.rewrite=true} to rewrite the drawings (and to
 * start a page for a graph that has none).
 */
@QuarkusTest
class BlueprintPagesTest {

    static final Path PAGES = Path.of("docs", "blueprints");
    static final String BEGIN = "<!-- drawing: generated from the compiled graph by BlueprintPagesTest; do not edit -->";
    static final String END = "<!-- end of drawing -->";
    static final String REGENERATE = "./mvnw -o test -Dtest=BlueprintPagesTest -Dconduit.blueprints.rewrite=true";

    @Inject
    GraphRegistry graphs;

    @Test
    void everyServedGraphHasAPageWithItsCurrentDrawing() throws IOException {
        boolean rewrite = Boolean.getBoolean("conduit.blueprints.rewrite");
        List<String> stale = new ArrayList<>();
        for (RegisteredGraph g : graphs.all()) {
            Path page = PAGES.resolve(g.graphId() + ".md");
            String drawing = BEGIN + "\n```mermaid\n" + g.graph().mermaid() + "```\n" + END;
            String text = Files.exists(page) ? Files.readString(page, StandardCharsets.UTF_8) : null;
            String current = text == null ? null : withDrawing(text, drawing);
            if (text != null && text.equals(current)) {
                continue;
            }
            if (rewrite) {
                Files.createDirectories(PAGES);
                Files.writeString(page, current != null ? current : newPage(g, drawing), StandardCharsets.UTF_8);
            } else {
                stale.add(page + (text == null ? " is missing" : current == null ? " has no drawing markers" : "'s drawing is not current"));
            }
        }
        assertThat(stale).as("blueprint pages out of date; regenerate them with: " + REGENERATE).isEmpty();
    }

    @Test
    void theIndexLinksEveryPage() throws IOException {
        String index = Files.readString(PAGES.resolve("README.md"), StandardCharsets.UTF_8);
        for (RegisteredGraph g : graphs.all()) {
            assertThat(index).as("docs/blueprints/README.md links " + g.graphId()).contains("(" + g.graphId() + ".md)");
        }
    }

    /** The page with its drawing replaced, or null when it has no markers. */
    static String withDrawing(String text, String drawing) {
        int b = text.indexOf(BEGIN);
        int e = text.indexOf(END);
        if (b < 0 || e < b) {
            return null;
        }
        return text.substring(0, b) + drawing + text.substring(e + END.length());
    }

    static String newPage(RegisteredGraph g, String drawing) {
        return "# `" + g.graphId() + "`\n\n" + g.description() + "\n\n" + drawing + "\n\n"
                + "## What it is for\n\n## State\n\n## Tools\n\n## Interrupts\n\n## Configuration\n";
    }
}
