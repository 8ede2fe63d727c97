package io.gfxstats.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Loads and stores at buffer addresses, with the memory ordering in each method's name
 * (plain, {@code Volatile} reads, {@code Ordered} release stores, atomic {@code add} and
 * {@code compareAndSwap}), the way the counting code has always been written - but with the
 * JDK alone, so that an application that embeds the client needs no JVM option. Two ways, chosen
 * once per process: where the JDK allows raw memory access silently (JDK 17 to 23,
 * {@link RawMemory}) an address is the native one and each access a single instruction, as the
 * per-frame path needs; elsewhere (JDK 24 and later, or {@code -Dgfxstats.buffer.varhandles=true})
 * an address is a {@link MappedRegion}'s number in the high 32 bits and a byte offset in the low
 * 32, every access goes through a byte-buffer {@link VarHandle}, which checks bounds, and an
 * address kept past its region's release throws. Address 0 is never valid either way, so callers
 * can use 0 for "absent".
 *
 * <p>Counters are little-endian, as the buffer format says, on any platform.
 */
final class BufferMemory {
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private BufferMemory() {
    }

    static long address(int region, long offset) {
        return ((long) region << 32) | offset;
    }

    private static ByteBuffer buffer(long address) {
        return MappedRegion.buffer((int) (address >>> 32));
    }

    private static int offset(long address) {
        return (int) address;
    }

    static int readInt(long address) {
        if (RawMemory.AVAILABLE) {
            return RawMemory.getInt(address);
        }
        return (int) INT.get(buffer(address), offset(address));
    }

    static void writeInt(long address, int value) {
        if (RawMemory.AVAILABLE) {
            RawMemory.putInt(address, value);
            return;
        }
        INT.set(buffer(address), offset(address), value);
    }

    static int readVolatileInt(long address) {
        if (RawMemory.AVAILABLE) {
            return RawMemory.getIntVolatile(address);
        }
        return (int) INT.getVolatile(buffer(address), offset(address));
    }

    /** A release store: every load and store before it is visible before this value is. */
    static void writeOrderedInt(long address, int value) {
        if (RawMemory.AVAILABLE) {
            RawMemory.putOrderedInt(address, value);
            return;
        }
        INT.setRelease(buffer(address), offset(address), value);
    }

    /** An atomic add (for the shared stripe, which several writers count into). */
    static void addInt(long address, int delta) {
        if (RawMemory.AVAILABLE) {
            RawMemory.getAndAddInt(address, delta);
            return;
        }
        INT.getAndAdd(buffer(address), offset(address), delta);
    }

    static boolean compareAndSwapInt(long address, int expected, int value) {
        if (RawMemory.AVAILABLE) {
            return RawMemory.compareAndSwapInt(address, expected, value);
        }
        return INT.compareAndSet(buffer(address), offset(address), expected, value);
    }

    static long readLong(long address) {
        if (RawMemory.AVAILABLE) {
            return RawMemory.getLong(address);
        }
        return (long) LONG.get(buffer(address), offset(address));
    }

    static void writeLong(long address, long value) {
        if (RawMemory.AVAILABLE) {
            RawMemory.putLong(address, value);
            return;
        }
        LONG.set(buffer(address), offset(address), value);
    }

    static long readVolatileLong(long address) {
        if (RawMemory.AVAILABLE) {
            return RawMemory.getLongVolatile(address);
        }
        return (long) LONG.getVolatile(buffer(address), offset(address));
    }

    static void writeOrderedLong(long address, long value) {
        if (RawMemory.AVAILABLE) {
            RawMemory.putOrderedLong(address, value);
            return;
        }
        LONG.setRelease(buffer(address), offset(address), value);
    }

    static void addLong(long address, long delta) {
        if (RawMemory.AVAILABLE) {
            RawMemory.getAndAddLong(address, delta);
            return;
        }
        LONG.getAndAdd(buffer(address), offset(address), delta);
    }

    static boolean compareAndSwapLong(long address, long expected, long value) {
        if (RawMemory.AVAILABLE) {
            return RawMemory.compareAndSwapLong(address, expected, value);
        }
        return LONG.compareAndSet(buffer(address), offset(address), expected, value);
    }

    static byte readByte(long address) {
        if (RawMemory.AVAILABLE) {
            return RawMemory.getByte(address);
        }
        return buffer(address).get(offset(address));
    }

    static void writeByte(long address, byte value) {
        if (RawMemory.AVAILABLE) {
            RawMemory.putByte(address, value);
            return;
        }
        buffer(address).put(offset(address), value);
    }
}
