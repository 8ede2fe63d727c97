package io.gfxstats.live;

import java.util.Comparator;

/** The orders of {@code gfxstats top}'s rows; {@code s} cycles through them. */
public enum TopSort {
    NAME("name", Comparator.comparing(TopRow::packageName).thenComparingLong(TopRow::versionCode)
            .thenComparing(r -> r.scene() == null ? "" : r.scene())),
    FPS("fps", Comparator.comparingDouble((TopRow r) -> Double.isNaN(r.fps()) ? Double.MAX_VALUE : r.fps())),
    JANK("jank", Comparator.comparingDouble((TopRow r) -> Double.isNaN(r.jankPercent()) ? -1 : r.jankPercent())
            .reversed()),
    DROPPED("dropped", Comparator.comparingLong(TopRow::dropped).reversed());

    private final String label;
    private final Comparator<TopRow> order;

    TopSort(String label, Comparator<TopRow> order) {
        this.label = label;
        this.order = order;
    }

    public String label() {
        return label;
    }

    /** This order, ties broken by name. */
    public Comparator<TopRow> comparator() {
        return order.thenComparing(NAME.order);
    }

    public TopSort next() {
        return values()[(ordinal() + 1) % values().length];
    }

    public static TopSort parse(String text) {
        for (TopSort s : values()) {
            if (s.label.equalsIgnoreCase(text.trim())) {
                return s;
            }
        }
        throw new IllegalArgumentException("sort must be name, fps, jank or dropped: " + text);
    }
}
