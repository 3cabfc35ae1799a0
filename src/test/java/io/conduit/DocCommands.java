package io.conduit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code curl} commands a page of the docs shows under one heading, run as written with bash from the
 * repository's root, so that a test checks what a reader would type: in fenced {@code bash} blocks (a line ending
 * with a backslash, or a quote left open, goes on on the next) and in inline code spans, in the order they appear. Only what a machine of
 * the tests must differ in is replaced: {@code localhost:8080} by the test's port, and the names given to
 * {@link #replacing} (thread and user ids, so that a second run of the test starts afresh).
 */
public final class DocCommands {

    private static final Pattern FENCE = Pattern.compile("(?ms)^```bash\\n(.*?)^```");
    private static final Pattern INLINE = Pattern.compile("`(curl [^`]+)`");

    private final List<String> commands;
    private final Map<String, String> replacements = new LinkedHashMap<>();

    private DocCommands(List<String> commands) {
        this.commands = commands;
    }

    /** The commands under {@code heading} (a whole heading line, e.g. {@code "## Try it"}) of {@code page}. */
    public static DocCommands of(String page, String heading) throws IOException {
        String text = Files.readString(Path.of(page));
        int start = text.indexOf("\n" + heading + "\n");
        assertThat(start).as("%s has a section %s", page, heading).isGreaterThanOrEqualTo(0);
        int level = heading.indexOf(' ');
        int end = text.length();
        boolean fenced = false;
        int at = start + heading.length() + 2;
        for (String line : text.substring(at).split("\n", -1)) {
            // a heading of the same level or higher ends the section; a bash comment inside a fence is not one
            if (line.startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced && line.matches("#{1," + level + "} .*")) {
                end = at;
                break;
            }
            at += line.length() + 1;
        }
        String section = text.substring(start, end);
        // both kinds, ordered by where they appear in the section
        Map<Integer, String> found = new TreeMap<>();
        Matcher fence = FENCE.matcher(section);
        List<int[]> blocks = new ArrayList<>();
        while (fence.find()) {
            blocks.add(new int[] {fence.start(), fence.end()});
            int offset = fence.start(1);
            String[] lines = fence.group(1).replace("\\\n", "").split("\n");
            for (int i = 0; i < lines.length; i++) {
                String command = lines[i].strip();
                if (command.startsWith("curl ")) {
                    // a quoted body may go on over several lines
                    while (command.chars().filter(c -> c == '\'').count() % 2 == 1 && i + 1 < lines.length) {
                        command += "\n" + lines[++i];
                    }
                    found.put(offset++, command);
                }
            }
        }
        Matcher inline = INLINE.matcher(section);
        while (inline.find()) {
            int where = inline.start();
            if (blocks.stream().noneMatch(f -> where >= f[0] && where < f[1])) {
                found.put(where, inline.group(1));
            }
        }
        assertThat(found).as("curl commands under %s in %s", heading, page).isNotEmpty();
        return new DocCommands(List.copyOf(found.values()));
    }

    /** Replaces {@code name} by {@code by} in every command (a thread id, a user id). */
    public DocCommands replacing(String name, String by) {
        replacements.put(name, by);
        return this;
    }

    public List<String> commands() {
        return commands;
    }

    /** The command {@code i} as it runs: the test's port, the replacements. */
    public String command(int i, int port) {
        String c = commands.get(i).replace("localhost:8080", "localhost:" + port);
        for (Map.Entry<String, String> r : replacements.entrySet()) {
            c = c.replace(r.getKey(), r.getValue());
        }
        return c;
    }

    /** Runs every command in turn; their standard outputs. */
    public List<String> runAll(int port) throws Exception {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < commands.size(); i++) {
            out.add(run(i, port));
        }
        return out;
    }

    /** Runs command {@code i} with bash from the repository's root; its standard output. Fails unless it exits 0. */
    public String run(int i, int port) throws Exception {
        String command = command(i, port);
        File out = File.createTempFile("doc-command", ".out");
        File err = File.createTempFile("doc-command", ".err");
        Process bash = new ProcessBuilder("bash", "-c", command).directory(new File("."))
                .redirectOutput(out).redirectError(err).start();
        boolean finished = bash.waitFor(120, TimeUnit.SECONDS); // a bound against a hung command, not a timing assertion
        if (!finished) {
            bash.destroyForcibly();
        }
        String stdout = Files.readString(out.toPath());
        String stderr = Files.readString(err.toPath());
        out.delete();
        err.delete();
        assertThat(finished).as("%s finished", command).isTrue();
        assertThat(bash.exitValue()).as("%s exits 0; stderr: %s", command, stderr).isZero();
        return stdout;
    }
}
