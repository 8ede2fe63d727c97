package io.gfxstats.daemon;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * SIGTERM and SIGINT as "stop cleanly, exit 0" (the JVM's own handling runs the shutdown hooks and
 * exits 143, which service managers count as a failure unless told otherwise). The JDK offers
 * this only through {@code sun.misc.Signal} in the {@code jdk.unsupported} module, which javac
 * flags as internal API on every build: it is reached by reflection, and where the module is
 * absent (a jlinked runtime without it) the daemon keeps the JVM's default, still saving
 * everything through its shutdown hook.
 */
final class StopSignals {
    private StopSignals() {
    }

    /**
     * Runs {@code stop} on a thread of its own when one of {@code signals} ("TERM", "INT")
     * arrives. Returns false when the JDK cannot install handlers.
     */
    static boolean handle(Runnable stop, String... signals) {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Method install = signalClass.getMethod("handle", signalClass, handlerClass);
            Method name = signalClass.getMethod("getName");
            InvocationHandler onSignal = (proxy, method, args) -> switch (method.getName()) {
                case "handle" -> {
                    new Thread(stop, "gfxstatsd-signal-" + name.invoke(args[0])).start();
                    yield null;
                }
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                case "toString" -> "gfxstatsd stop handler";
                default -> throw new UnsupportedOperationException(method.getName());
            };
            Object handler = Proxy.newProxyInstance(StopSignals.class.getClassLoader(),
                    new Class<?>[] {handlerClass}, onSignal);
            for (String signal : signals) {
                install.invoke(null, signalClass.getConstructor(String.class).newInstance(signal), handler);
            }
            return true;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return false;
        }
    }
}
