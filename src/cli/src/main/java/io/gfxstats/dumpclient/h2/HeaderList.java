package io.gfxstats.dumpclient.h2;

import java.util.ArrayList;
import java.util.List;

/** The fields of one decoded header block, in order. Names are lower case on the HTTP/2 wire. */
final class HeaderList {
    private final List<String> names = new ArrayList<>();
    private final List<String> values = new ArrayList<>();

    void add(String name, String value) {
        names.add(name);
        values.add(value);
    }

    int size() {
        return names.size();
    }

    String name(int i) {
        return names.get(i);
    }

    String value(int i) {
        return values.get(i);
    }

    /** The first value of {@code name}, or null. */
    String get(String name) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equals(name)) {
                return values.get(i);
            }
        }
        return null;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < names.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(names.get(i)).append('=').append(values.get(i));
        }
        return sb.append('}').toString();
    }
}
