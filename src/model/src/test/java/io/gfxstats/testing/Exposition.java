package io.gfxstats.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** A scrape of a Prometheus text exposition: series (name with labels, as printed) to value. */
public record Exposition(int status, String text, Map<String, Double> series) {
    /**
     * One client for every plain scrape, as a scraper keeps its connection: a client per scrape
     * would leave a kept-alive connection each, and the daemon caps the connections of a peer.
     */
    private static final HttpClient SHARED = HttpClient.newHttpClient();

    public static Exposition scrape(String url, String bearerToken) throws IOException, InterruptedException {
        return scrape(SHARED, url, bearerToken);
    }

    public static Exposition scrape(HttpClient client, String url, String bearerToken)
            throws IOException, InterruptedException {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (bearerToken != null) {
            req.header("Authorization", "Bearer " + bearerToken);
        }
        HttpResponse<String> r = client.send(req.build(), HttpResponse.BodyHandlers.ofString());
        Map<String, Double> series = new LinkedHashMap<>();
        if (r.statusCode() == 200) {
            for (String line : r.body().split("\n")) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int space = line.lastIndexOf(' ');
                series.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            }
        }
        return new Exposition(r.statusCode(), r.body(), series);
    }

    /** Sum of every series of a metric name (labels ignored). */
    public double sum(String name) {
        double s = 0;
        for (Map.Entry<String, Double> e : series.entrySet()) {
            String k = e.getKey();
            if (k.equals(name) || k.startsWith(name + "{")) {
                s += e.getValue();
            }
        }
        return s;
    }

    /** The series of a name whose label text contains every fragment. */
    public double value(String name, String... labelFragments) {
        Double found = null;
        for (Map.Entry<String, Double> e : series.entrySet()) {
            String k = e.getKey();
            if (!(k.equals(name) || k.startsWith(name + "{"))) {
                continue;
            }
            boolean all = true;
            for (String f : labelFragments) {
                all &= k.contains(f);
            }
            if (all) {
                if (found != null) {
                    throw new IllegalStateException("several series of " + name + " match");
                }
                found = e.getValue();
            }
        }
        if (found == null) {
            throw new IllegalStateException("no series " + name + " with " + String.join(",", labelFragments)
                    + " in\n" + text);
        }
        return found;
    }
}
