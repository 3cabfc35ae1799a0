package io.conduit.bench.stream;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time (user + system) and RSS of a process, read from /proc, so the server can be measured from outside. */
record ProcessCpu(String pid) {
    private static final long TICK_MILLIS = 10; // USER_HZ is 100 on Linux

    static ProcessCpu self() {
        return new ProcessCpu(String.valueOf(ProcessHandle.current().pid()));
    }

    /** utime + stime in milliseconds. */
    long cpuMillis() {
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            // the command name may hold spaces: fields are counted after its closing parenthesis
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_MILLIS;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * utime + stime in milliseconds of the process's JIT compiler threads (HotSpot names them {@code C1 CompilerThre}
     * and {@code C2 CompilerThre}, as /proc cuts them); -1 if they cannot be read.
     */
    long compilerCpuMillis() {
        try (var tasks = Files.list(Path.of("/proc", pid, "task"))) {
            long sum = 0;
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException gone) {
                    continue; // the thread ended meanwhile
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    sum += (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_MILLIS;
                }
            }
            return sum;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    long rssKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // reported as unknown
        }
        return -1;
    }
}
