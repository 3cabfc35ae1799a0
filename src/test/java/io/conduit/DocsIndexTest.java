package io.conduit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** docs/README.md is the index of the documentation: it links every page under docs/, and every link it has leads to a file. */
class DocsIndexTest {

    private static final Path DOCS = Path.of("docs");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(?:#[^)]*)?\\)");

    @Test
    void theIndexLinksEveryPageUnderDocsAndNothingMissing() throws IOException {
        String index = Files.readString(DOCS.resolve("README.md"));
        List<Path> linked = new ArrayList<>();
        Matcher m = LINK.matcher(index);
        while (m.find()) {
            if (!m.group(1).startsWith("http")) {
                linked.add(DOCS.resolve(m.group(1)).normalize());
            }
        }
        assertThat(linked).allSatisfy(p -> assertThat(p).as("a link of docs/README.md").exists());
        List<Path> pages;
        try (Stream<Path> all = Files.walk(DOCS)) {
            pages = all.filter(p -> p.toString().endsWith(".md") && !p.equals(DOCS.resolve("README.md"))).map(Path::normalize).toList();
        }
        assertThat(pages).hasSizeGreaterThan(10);
        assertThat(linked).as("pages docs/README.md links").containsAll(pages);
    }
}
