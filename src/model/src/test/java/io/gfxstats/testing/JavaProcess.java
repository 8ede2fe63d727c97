package io.gfxstats.testing;

import io.gfxstats.buffer.JvmFlags;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a real JVM on the test classpath with the flags every gfxstats process needs. Fault
 * tests kill these with SIGKILL ({@link Process#destroyForcibly()}).
 */
public final class JavaProcess {
    private JavaProcess() {
    }

    /** A short-lived test JVM: C1 only, which starts faster than tiered compilation. */
    public static final List<String> SHORT_LIVED = List.of("-Xss1m", "-XX:TieredStopAtLevel=1");

    public static List<String> command(Class<?> mainClass, String... args) {
        return command(SHORT_LIVED, mainClass, args);
    }

    /**
     * The gfxstats flags, then {@code jvmOptions} (heap, collector, ...), then the class and its
     * arguments; with a class-data archive shared with the other children of {@code mainClass}
     * ({@link ChildClassSharing}).
     */
    public static List<String> command(List<String> jvmOptions, Class<?> mainClass, String... args) {
        ChildClassSharing sharing = ChildClassSharing.get();
        if (sharing == null) {
            return commandWithoutSharing(jvmOptions, mainClass, args);
        }
        List<String> options = new ArrayList<>(sharing.options(mainClass.getName()));
        options.addAll(jvmOptions);
        return command(options, sharing.classPath(), mainClass, args);
    }

    /** {@link #command(List, Class, String...)} on this JVM's own class path, without class-data sharing. */
    public static List<String> commandWithoutSharing(List<String> jvmOptions, Class<?> mainClass, String... args) {
        return command(jvmOptions, System.getProperty("java.class.path"), mainClass, args);
    }

    /** The gfxstats flags, {@code jvmOptions}, then the class on {@code classPath} and its arguments. */
    static List<String> command(List<String> jvmOptions, String classPath, Class<?> mainClass,
                                        String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        cmd.addAll(JvmFlags.all());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }

    public static ProcessBuilder builder(Class<?> mainClass, String... args) {
        return new ProcessBuilder(command(mainClass, args));
    }

    public static Process start(Class<?> mainClass, String... args) throws IOException {
        return builder(mainClass, args).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
