package io.gfxstats.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The threads and processes of a trace with their internal ids (itid, ipid), given in order of
 * first appearance from 1; 0 is trace_streamer's placeholder for both.
 */
final class Threads {
    private final Map<Integer, ThreadInfo> threads = new HashMap<>();
    private final List<ThreadInfo> threadList = new ArrayList<>();
    private final Map<Integer, ProcessInfo> processes = new HashMap<>();
    private final List<ProcessInfo> processList = new ArrayList<>();
    /** One-entry caches: consecutive lines mostly come from one thread. */
    private ThreadInfo lastThread;
    private ProcessInfo lastProcess;

    Threads() {
        threadList.add(null);
        processList.add(null);
    }

    ThreadInfo thread(int tid) {
        if (lastThread != null && lastThread.tid == tid) {
            return lastThread;
        }
        ThreadInfo t = threads.get(tid);
        if (t == null) {
            t = new ThreadInfo(threadList.size(), tid);
            threads.put(tid, t);
            threadList.add(t);
        }
        lastThread = t;
        return t;
    }

    /** The internal id of a thread seen so far, -1 for one never seen (it has no frames). */
    int itidOrNone(int tid) {
        ThreadInfo t = threads.get(tid);
        return t == null ? -1 : t.itid;
    }

    ProcessInfo process(int pid) {
        if (lastProcess != null && lastProcess.pid == pid) {
            return lastProcess;
        }
        ProcessInfo p = processes.get(pid);
        if (p == null) {
            p = new ProcessInfo(processList.size(), pid);
            processes.put(pid, p);
            processList.add(p);
        }
        lastProcess = p;
        return p;
    }

    /**
     * Links {@code t} to {@code p} and names both from the line: a process takes its main thread's
     * task name, else the first real one ({@code <...>} is ftrace's "name not recorded").
     */
    void seen(MarkerLine line, ThreadInfo t, ProcessInfo p) {
        int tid = line.tid();
        int pid = line.pid();
        t.ipid = p.ipid;
        if (t.name == null) {
            t.name = line.task();
        }
        if (!p.nameFromMainThread) {
            if (tid == pid || tid == line.rowTgid()) {
                p.name = t.name.equals("<...>") ? p.name : t.name;
                p.nameFromMainThread = p.name != null;
            } else if (p.name == null && !t.name.equals("<...>")) {
                p.name = t.name;
            }
        }
        if (line.rowTgid() >= 0 && line.rowTgid() != pid) {
            p.kernelTgid = line.rowTgid();
        }
    }

    List<ThreadInfo> threads() {
        return List.copyOf(threadList.subList(1, threadList.size()));
    }

    List<ProcessInfo> processes() {
        return List.copyOf(processList.subList(1, processList.size()));
    }
}
