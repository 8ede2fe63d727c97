package io.gfxstats.buffer;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * Plain loads and stores at native addresses, where the JDK allows them silently: through
 * {@code sun.misc.Unsafe} (module jdk.unsupported, open to every class path application without
 * an option) on JDK 17 to 23. From JDK 24 on, the first such call prints a deprecation warning
 * into the application's output, so there {@link #AVAILABLE} is false and {@link BufferMemory}
 * goes through byte-buffer VarHandles instead. Reached through method handles, so that no class of
 * ours names the internal type (javac would warn about it) and the JIT still compiles each call
 * down to the single load or store.
 *
 * <p>Why at all: the per-frame path makes about 20 loads and stores; through byte-buffer
 * VarHandles, with their bounds, alignment and read-only checks on each, recording a frame cost
 * about three times as long (docs/benchmarks.md, "Mapping with the JDK alone").
 */
final class RawMemory {
    /** Last JDK feature release whose {@code sun.misc.Unsafe} memory methods run without a warning. */
    static final int LAST_SILENT_RELEASE = 23;

    static final boolean AVAILABLE;
    private static final MethodHandle GET_INT;
    private static final MethodHandle PUT_INT;
    private static final MethodHandle GET_LONG;
    private static final MethodHandle PUT_LONG;
    private static final MethodHandle GET_BUFFER_ADDRESS;
    private static final MethodHandle GET_BYTE;
    private static final MethodHandle PUT_BYTE;
    private static final MethodHandle GET_INT_VOLATILE;
    private static final MethodHandle PUT_INT_ORDERED;
    private static final MethodHandle GET_AND_ADD_INT;
    private static final MethodHandle CAS_INT;
    private static final MethodHandle GET_LONG_VOLATILE;
    private static final MethodHandle PUT_LONG_ORDERED;
    private static final MethodHandle GET_AND_ADD_LONG;
    private static final MethodHandle CAS_LONG;

    static {
        MethodHandle getInt = null;
        MethodHandle putInt = null;
        MethodHandle getLong = null;
        MethodHandle putLong = null;
        MethodHandle bufferAddress = null;
        MethodHandle[] absolute = new MethodHandle[10];
        if (Runtime.version().feature() <= LAST_SILENT_RELEASE && !Boolean.getBoolean("gfxstats.buffer.varhandles")) {
            try {
                Class<?> type = Class.forName("sun.misc." + "Unsafe");
                Field instance = type.getDeclaredField("theUnsafe");
                instance.setAccessible(true);
                Object unsafe = instance.get(null);
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                getInt = lookup.findVirtual(type, "getInt", MethodType.methodType(int.class, long.class)).bindTo(unsafe);
                putInt = lookup.findVirtual(type, "putInt", MethodType.methodType(void.class, long.class, int.class))
                        .bindTo(unsafe);
                getLong = lookup.findVirtual(type, "getLong", MethodType.methodType(long.class, long.class)).bindTo(unsafe);
                putLong = lookup.findVirtual(type, "putLong", MethodType.methodType(void.class, long.class, long.class))
                        .bindTo(unsafe);
                long addressOffset = (long) lookup.findVirtual(type, "objectFieldOffset",
                        MethodType.methodType(long.class, Field.class)).invoke(unsafe, Buffer.class.getDeclaredField("address"));
                bufferAddress = MethodHandles.insertArguments(lookup.findVirtual(type, "getLong",
                        MethodType.methodType(long.class, Object.class, long.class)).bindTo(unsafe), 1, addressOffset);
                // The (Object, long) methods with a null object take the long as an absolute address.
                Object[][] specs = {
                    {"getByte", MethodType.methodType(byte.class, long.class)},
                    {"putByte", MethodType.methodType(void.class, long.class, byte.class)},
                    {"getIntVolatile", MethodType.methodType(int.class, Object.class, long.class)},
                    {"putOrderedInt", MethodType.methodType(void.class, Object.class, long.class, int.class)},
                    {"getAndAddInt", MethodType.methodType(int.class, Object.class, long.class, int.class)},
                    {"compareAndSwapInt", MethodType.methodType(boolean.class, Object.class, long.class, int.class, int.class)},
                    {"getLongVolatile", MethodType.methodType(long.class, Object.class, long.class)},
                    {"putOrderedLong", MethodType.methodType(void.class, Object.class, long.class, long.class)},
                    {"getAndAddLong", MethodType.methodType(long.class, Object.class, long.class, long.class)},
                    {"compareAndSwapLong", MethodType.methodType(boolean.class, Object.class, long.class, long.class, long.class)},
                };
                for (int i = 0; i < specs.length; i++) {
                    MethodType t = (MethodType) specs[i][1];
                    MethodHandle h = lookup.findVirtual(type, (String) specs[i][0], t).bindTo(unsafe);
                    absolute[i] = t.parameterCount() > 0 && t.parameterType(0) == Object.class
                            ? MethodHandles.insertArguments(h, 0, (Object) null) : h;
                }
            } catch (Throwable e) {
                // Not there, or refused (a future JDK, a security policy): the VarHandle path is always correct.
                getInt = null;
            }
        }
        AVAILABLE = getInt != null;
        GET_INT = getInt;
        PUT_INT = putInt;
        GET_LONG = getLong;
        PUT_LONG = putLong;
        GET_BUFFER_ADDRESS = bufferAddress;
        GET_BYTE = absolute[0];
        PUT_BYTE = absolute[1];
        GET_INT_VOLATILE = absolute[2];
        PUT_INT_ORDERED = absolute[3];
        GET_AND_ADD_INT = absolute[4];
        CAS_INT = absolute[5];
        GET_LONG_VOLATILE = absolute[6];
        PUT_LONG_ORDERED = absolute[7];
        GET_AND_ADD_LONG = absolute[8];
        CAS_LONG = absolute[9];
    }

    private RawMemory() {
    }

    /** The native address of a direct buffer's first byte. */
    static long address(ByteBuffer direct) {
        if (!direct.isDirect()) {
            throw new IllegalArgumentException("not a direct buffer");
        }
        try {
            return (long) GET_BUFFER_ADDRESS.invokeExact((Object) direct);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static int getInt(long address) {
        try {
            return (int) GET_INT.invokeExact(address);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static void putInt(long address, int value) {
        try {
            PUT_INT.invokeExact(address, value);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static long getLong(long address) {
        try {
            return (long) GET_LONG.invokeExact(address);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static void putLong(long address, long value) {
        try {
            PUT_LONG.invokeExact(address, value);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static byte getByte(long address) {
        try {
            return (byte) GET_BYTE.invokeExact(address);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static void putByte(long address, byte value) {
        try {
            PUT_BYTE.invokeExact(address, value);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static int getIntVolatile(long address) {
        try {
            return (int) GET_INT_VOLATILE.invokeExact(address);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static void putOrderedInt(long address, int value) {
        try {
            PUT_INT_ORDERED.invokeExact(address, value);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static int getAndAddInt(long address, int delta) {
        try {
            return (int) GET_AND_ADD_INT.invokeExact(address, delta);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static boolean compareAndSwapInt(long address, int expected, int value) {
        try {
            return (boolean) CAS_INT.invokeExact(address, expected, value);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static long getLongVolatile(long address) {
        try {
            return (long) GET_LONG_VOLATILE.invokeExact(address);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static void putOrderedLong(long address, long value) {
        try {
            PUT_LONG_ORDERED.invokeExact(address, value);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static long getAndAddLong(long address, long delta) {
        try {
            return (long) GET_AND_ADD_LONG.invokeExact(address, delta);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static boolean compareAndSwapLong(long address, long expected, long value) {
        try {
            return (boolean) CAS_LONG.invokeExact(address, expected, value);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    private static RuntimeException rethrow(Throwable e) {
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (e instanceof Error err) {
            throw err;
        }
        throw new IllegalStateException(e);
    }
}
