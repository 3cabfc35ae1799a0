package io.conduit.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** A {@code jcmd} command sent to a server the harnesses measure; its output, or empty when it could not run. */
public final class Jcmd {

    private Jcmd() {
    }

    public static String run(String pid, String command) {
        try {
            Process p = new ProcessBuilder(System.getProperty("java.home") + "/bin/jcmd", pid, command)
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
