package io.conduit.bench.stream;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server process seen from outside: its CPU and RSS from /proc, and its live heap after a full GC through
 * {@code jcmd} (GC.run, then GC.heap_info), so no code in the server is needed to measure it.
 */
final class ServerProbe {
    private static final Pattern USED = Pattern.compile("heap .*?used (\\d+)K");
    private final ProcessCpu process;

    ServerProbe(String pid) {
        this.process = new ProcessCpu(pid);
    }

    boolean present() {
        return process.pid() != null && !process.pid().isBlank();
    }

    long cpuMillis() {
        return present() ? process.cpuMillis() : -1;
    }

    /** CPU time of the server's JIT compiler threads, in milliseconds; -1 if unknown. */
    long compilerCpuMillis() {
        return present() ? process.compilerCpuMillis() : -1;
    }

    long rssKb() {
        return present() ? process.rssKb() : -1;
    }

    /** Used heap in KB after a full collection; -1 if jcmd cannot reach the server. */
    long heapAfterGcKb() {
        if (!present()) {
            return -1;
        }
        jcmd("GC.run");
        jcmd("GC.run");
        Matcher m = USED.matcher(jcmd("GC.heap_info"));
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private String jcmd(String command) {
        return io.conduit.bench.Jcmd.run(process.pid(), command);
    }
}
