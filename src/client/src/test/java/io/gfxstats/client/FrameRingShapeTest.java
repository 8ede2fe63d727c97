package io.gfxstats.client;

import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The frame path's shape that its cost depends on (docs/benchmarks.md, "Session 35: no call on the
 * Java frame path"): {@link FrameRing#put(long, long, long, long, long)} is inlined into the
 * recording thread's loop only while its bytecode stays within C2's limit for a hot call
 * ({@code -XX:FreqInlineSize}, 325 bytes on x86-64 in JDK 17 and 25), and it calls no method of
 * its own but the one for a closed or full ring. Read from the class file as compiled, so that an
 * edit that crosses either line fails here rather than only in a benchmark.
 */
class FrameRingShapeTest {
    /** C2's default {@code FreqInlineSize} on x86-64. */
    private static final int FREQ_INLINE_SIZE = 325;
    private static final String PUT = "put";
    private static final String TIMES = "(JJJJJ)V";

    @Test
    void shouldKeepTheFramePathWithinTheBytecodeC2InlinesAtAHotCall() throws IOException {
        Method put = method(PUT, TIMES);
        assertTrue(put.code.length <= FREQ_INLINE_SIZE,
                "FrameRing.put is " + put.code.length + " bytes of bytecode; over " + FREQ_INLINE_SIZE
                        + " C2 no longer inlines it into the recording thread's loop");
    }

    @Test
    void shouldCallNothingOnTheFramePathButTheVarHandlesAndTheClosedOrFullRing() throws IOException {
        Method put = method(PUT, TIMES);
        List<String> calls = new ArrayList<>();
        for (String callee : put.callees) {
            if (!callee.startsWith("java/lang/invoke/VarHandle.")) {
                calls.add(callee);
            }
        }
        assertEquals(List.of("io/gfxstats/client/FrameRing.putBlocked"), calls);
    }

    /** One method of FrameRing as its class file has it: the bytecode and what it invokes. */
    private record Method(byte[] code, List<String> callees) {
    }

    private static Method method(String name, String descriptor) throws IOException {
        try (InputStream in = FrameRing.class.getResourceAsStream("FrameRing.class")) {
            assertNotNull(in, "FrameRing.class is on the class path");
            return ClassFile.read(new DataInputStream(in)).find(name, descriptor);
        }
    }

    /**
     * Just enough of the class file format (JVMS chapter 4) to find a method's Code attribute and
     * name the methods its invoke instructions refer to.
     */
    private static final class ClassFile {
        private final Object[] pool;
        private final List<String[]> methods = new ArrayList<>(); // name, descriptor
        private final List<byte[]> codes = new ArrayList<>();

        private ClassFile(Object[] pool) {
            this.pool = pool;
        }

        static ClassFile read(DataInputStream in) throws IOException {
            assertEquals(0xCAFEBABE, in.readInt(), "a class file");
            in.readUnsignedShort(); // minor
            in.readUnsignedShort(); // major
            int count = in.readUnsignedShort();
            Object[] pool = new Object[count];
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> pool[i] = in.readUTF();
                    case 3, 4 -> in.readInt();
                    case 5, 6 -> {
                        in.readLong();
                        i++; // takes two entries
                    }
                    case 7, 8, 16, 19, 20 -> pool[i] = new int[] {in.readUnsignedShort()};
                    case 9, 10, 11, 12, 17, 18 -> pool[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
                    case 15 -> {
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                    }
                    default -> fail("constant pool tag " + tag);
                }
            }
            ClassFile c = new ClassFile(pool);
            in.readUnsignedShort(); // access
            in.readUnsignedShort(); // this
            in.readUnsignedShort(); // super
            in.skipNBytes(2L * in.readUnsignedShort()); // interfaces
            int fields = in.readUnsignedShort();
            for (int f = 0; f < fields; f++) {
                in.skipNBytes(6);
                skipAttributes(in);
            }
            int methods = in.readUnsignedShort();
            for (int m = 0; m < methods; m++) {
                in.readUnsignedShort(); // access
                String name = (String) pool[in.readUnsignedShort()];
                String descriptor = (String) pool[in.readUnsignedShort()];
                byte[] code = null;
                int attributes = in.readUnsignedShort();
                for (int a = 0; a < attributes; a++) {
                    String attribute = (String) pool[in.readUnsignedShort()];
                    int length = in.readInt();
                    if (attribute.equals("Code")) {
                        in.readUnsignedShort(); // max stack
                        in.readUnsignedShort(); // max locals
                        code = in.readNBytes(in.readInt());
                        in.skipNBytes(length - 8L - code.length);
                    } else {
                        in.skipNBytes(length);
                    }
                }
                c.methods.add(new String[] {name, descriptor});
                c.codes.add(code);
            }
            return c;
        }

        private static void skipAttributes(DataInputStream in) throws IOException {
            int attributes = in.readUnsignedShort();
            for (int a = 0; a < attributes; a++) {
                in.readUnsignedShort();
                in.skipNBytes(in.readInt());
            }
        }

        Method find(String name, String descriptor) {
            for (int m = 0; m < methods.size(); m++) {
                if (methods.get(m)[0].equals(name) && methods.get(m)[1].equals(descriptor)) {
                    byte[] code = codes.get(m);
                    return new Method(code, callees(code));
                }
            }
            throw new AssertionError("FrameRing has no method " + name + descriptor);
        }

        /** The owner and name of every invokevirtual, invokespecial, invokestatic and invokeinterface. */
        private List<String> callees(byte[] code) {
            List<String> out = new ArrayList<>();
            int pc = 0;
            while (pc < code.length) {
                int op = code[pc] & 0xFF;
                if (op >= 0xB6 && op <= 0xB9) {
                    int[] ref = (int[]) pool[(code[pc + 1] & 0xFF) << 8 | code[pc + 2] & 0xFF];
                    String owner = (String) pool[((int[]) pool[ref[0]])[0]];
                    String member = (String) pool[((int[]) pool[ref[1]])[0]];
                    out.add(owner + "." + member);
                }
                pc += length(code, pc);
            }
            return out;
        }

        /** The length of the instruction at pc (JVMS 6.5); the switches are padded to 4 bytes. */
        private static int length(byte[] code, int pc) {
            int op = code[pc] & 0xFF;
            switch (op) {
                case 0x10, 0x12, 0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3A, 0xA9, 0xBC:
                    return 2;
                case 0x11, 0x13, 0x14, 0x84, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xBB, 0xBD, 0xC0, 0xC1,
                        0xC6, 0xC7, 0xA7, 0xA8:
                    return 3;
                case 0xC5:
                    return 4;
                case 0xB9, 0xBA, 0xC8, 0xC9:
                    return 5;
                case 0xC4: // wide
                    return (code[pc + 1] & 0xFF) == 0x84 ? 6 : 4;
                case 0xAA, 0xAB: {
                    int p = (pc + 4) & ~3;
                    if (op == 0xAA) {
                        int low = readInt(code, p + 4);
                        int high = readInt(code, p + 8);
                        return p + 12 + 4 * (high - low + 1) - pc;
                    }
                    return p + 8 + 8 * readInt(code, p + 4) - pc;
                }
                default:
                    if (op >= 0x99 && op <= 0xA6) {
                        return 3; // the conditional branches
                    }
                    return 1;
            }
        }

        private static int readInt(byte[] code, int p) {
            return (code[p] & 0xFF) << 24 | (code[p + 1] & 0xFF) << 16 | (code[p + 2] & 0xFF) << 8 | code[p + 3] & 0xFF;
        }
    }
}
