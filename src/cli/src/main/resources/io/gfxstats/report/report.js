// Draws the report's charts with uPlot from the JSON block written by HtmlReport, then notes on
// each chart element how many pixels it painted (a blank chart is a bug a test can see).
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  // As wide as the page allows (an 800 px window has no room for 920), never wider.
  var WIDTH = Math.min(920, Math.max(320, document.body.clientWidth - 8)), HEIGHT = 300;
  var COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948'];

  function indices(n) {
    var xs = [];
    for (var i = 0; i < n; i++) xs.push(i);
    return xs;
  }

  // A vertical axis as wide as its longest tick value plus the gap, so its title never sits on
  // the numbers (uPlot's fixed default is too narrow for "17,000" or "1.2M").
  function fit(u, values, axisIdx, cycleNum) {
    var axis = u.axes[axisIdx];
    if (cycleNum > 1) return axis._size;
    var longest = '';
    (values || []).forEach(function (v) { if (v != null && String(v).length > longest.length) longest = String(v); });
    u.ctx.save();
    u.ctx.font = axis.font[0];
    var w = u.ctx.measureText(longest).width / devicePixelRatio;
    u.ctx.restore();
    return Math.ceil(axis.ticks.size + axis.gap + w + 8);
  }

  function bars() {
    return uPlot.paths.bars({ size: [0.8, 60] });
  }

  // Vertical lines over the plot: dashed marks and solid percentile lines, each with a label.
  function lines(marks) {
    return function (u) {
      var ctx = u.ctx, top = u.bbox.top, bottom = u.bbox.top + u.bbox.height;
      ctx.save();
      ctx.font = Math.round(11 * devicePixelRatio) + 'px sans-serif';
      marks.forEach(function (m, k) {
        var x = Math.round(u.valToPos(m.x, 'x', true));
        ctx.strokeStyle = m.color;
        ctx.lineWidth = devicePixelRatio;
        ctx.setLineDash(m.dashed ? [5 * devicePixelRatio, 4 * devicePixelRatio] : []);
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, bottom);
        ctx.stroke();
        ctx.fillStyle = m.color;
        ctx.fillText(m.label, x + 3 * devicePixelRatio, top + (12 + 13 * k) * devicePixelRatio);
      });
      ctx.restore();
    };
  }

  function histogram(el, h, marks, name) {
    // Up to the last bucket with frames (and past the marks), so the shape is not lost in empty buckets.
    var last = 0;
    h.counts.forEach(function (c, i) { if (c > 0) last = i; });
    marks.forEach(function (m) { last = Math.max(last, Math.ceil(m.x)); });
    var n = Math.min(h.counts.length, last + 2);
    var all = marks.map(function (m) { return { x: m.x, label: m.label, dashed: true, color: '#888' }; });
    h.percentiles.forEach(function (p) {
      if (p.x >= 0) all.push({ x: p.x, label: 'p' + p.p + ' ' + p.ms + 'ms', dashed: false, color: '#c0392b' });
    });
    return new uPlot({
      width: WIDTH, height: HEIGHT,
      scales: { x: { time: false, range: [-0.5, n - 0.5] } },
      legend: { show: true },
      axes: [
        { label: name + ' (ms, bucket label)', values: function (u, splits) {
          return splits.map(function (v) { return Number.isInteger(v) && v < n ? h.labels[v] : ''; });
        } },
        { label: 'frames', size: fit }
      ],
      series: [
        { label: 'bucket', value: function (u, v) { return v == null ? '' : h.labels[v] + 'ms'; } },
        { label: 'frames', fill: 'rgba(78,121,167,0.55)', stroke: '#4e79a7', paths: bars(), points: { show: false } }
      ],
      hooks: { draw: [lines(all)] }
    }, [indices(n), h.counts.slice(0, n)], el);
  }

  // Each frame's time over the capture's time, janky frames marked by cause, the refresh interval
  // dashed; uPlot zooms on a horizontal drag and zooms out on a double click.
  function frameTimes(el, f) {
    var series = [
      { label: 'time', value: function (u, v) { return v == null ? '' : v.toFixed(3) + ' s'; } },
      // A short trace has a few frames: a dot per frame, or they are hard to see.
      { label: 'frame time', stroke: '#4e79a7', width: 2,
        points: { show: f.t.length < 200, size: 6, fill: '#4e79a7', stroke: '#4e79a7' },
        value: function (u, v) { return v == null ? '' : v.toFixed(2) + ' ms'; } }
    ];
    var columns = [f.t, f.ms];
    f.marks.forEach(function (m, k) {
      series.push({ label: m.name, stroke: m.color, fill: m.color, paths: function () { return null; },
        points: { show: true, size: 7, fill: m.color, stroke: m.color },
        value: function (u, v) { return v == null ? '' : v.toFixed(2) + ' ms'; } });
      columns.push(m.values);
    });
    var refresh = function (u) {
      var y = Math.round(u.valToPos(f.refreshMs, 'y', true));
      var ctx = u.ctx;
      ctx.save();
      ctx.strokeStyle = '#888';
      ctx.lineWidth = devicePixelRatio;
      ctx.setLineDash([5 * devicePixelRatio, 4 * devicePixelRatio]);
      ctx.beginPath();
      ctx.moveTo(u.bbox.left, y);
      ctx.lineTo(u.bbox.left + u.bbox.width, y);
      ctx.stroke();
      ctx.restore();
    };
    return new uPlot({
      width: WIDTH, height: HEIGHT,
      scales: { x: { time: false }, y: { range: function (u, lo, hi) { return [0, Math.max(hi, f.refreshMs) * 1.05]; } } },
      cursor: { drag: { x: true, y: false } },
      axes: [{ label: 'seconds since the first frame' }, { label: 'frame time (ms)', size: fit }],
      series: series,
      hooks: {
        draw: [refresh],
        // A capture can hold a few frames from long before the rest: open on the latest 98 % of
        // the frames when they span less than half the time (a double click shows every frame).
        ready: [function (u) {
          var n = f.t.length;
          if (n < 50) return;
          var lo = f.t[Math.floor(n * 0.02)], hi = f.t[n - 1];
          // After uPlot's own first sizing, which would otherwise put the full range back.
          if (hi - lo < 0.5 * (hi - f.t[0])) setTimeout(function () { u.setScale('x', { min: lo, max: hi }); }, 0);
        }]
      }
    }, columns, el);
  }

  // Janky frames, then how many of them had each cause: one bar each, the summary's numbers.
  function causes(el, d) {
    var n = d.labels.length;
    return new uPlot({
      width: WIDTH, height: HEIGHT,
      scales: { x: { time: false, range: [-0.5, n - 0.5] } },
      axes: [
        { values: function (u, s) { return s.map(function (v) { return Number.isInteger(v) ? d.labels[v] : ''; }); } },
        { label: 'frames', size: fit }
      ],
      series: [
        { label: 'what', value: function (u, v) { return v == null ? '' : d.labels[v]; } },
        // Each cause's bar in that cause's colour, the one its marks have in the frame chart.
        { label: 'frames', fill: '#3d5a80', stroke: '#3d5a80', points: { show: false },
          paths: uPlot.paths.bars({ size: [0.8, 60], disp: {
            fill: { unit: 3, values: function () { return d.colors; } },
            stroke: { unit: 3, values: function () { return d.colors; } } } }) }
      ]
    }, [indices(n), d.values], el);
  }

  // Stacked bars: series k is the sum of the first k+1 parts, drawn from the tallest down so each
  // shows its band; the legend shows each part's own value.
  function stacked(el, labels, parts, xLabel, yLabel, tilted) {
    var d = { labels: labels, causes: parts };
    var n = d.labels.length;
    // Stacked: series k is the sum of causes 0..k, drawn from the tallest down so each shows its band.
    var sums = [], acc = new Array(n).fill(0);
    d.causes.forEach(function (c) {
      acc = acc.map(function (v, i) { return v + c.values[i]; });
      sums.push(acc.slice());
    });
    var series = [{ label: xLabel, value: function (u, v) { return v == null ? '' : d.labels[v]; } }];
    var columns = [indices(n)];
    for (var k = d.causes.length - 1; k >= 0; k--) {
      (function (k) {
        series.push({
          label: d.causes[k].name, fill: d.causes[k].color || COLORS[k % COLORS.length],
          stroke: d.causes[k].color || COLORS[k % COLORS.length],
          paths: bars(), points: { show: false },
          value: function (u, v, s, i) { return i == null ? '' : d.causes[k].values[i]; }
        });
      })(k);
      columns.push(sums[k]);
    }
    var opts = {
      width: WIDTH, height: tilted ? HEIGHT + 90 : HEIGHT,
      // Bars are read from zero: an axis starting at 215 makes 215 and 237 look like 1 and 20.
      scales: { x: { time: false, range: [-0.5, n - 0.5] }, y: { range: function (u, lo, hi) { return [0, Math.max(1, hi * 1.05)]; } } },
      axes: [
        { label: xLabel, values: function (u, s) { return s.map(function (v) { return Number.isInteger(v) ? d.labels[v] : ''; }); },
          // Long category names (FrameTimeline's types) would overlap when level: tilted, with room below.
          rotate: tilted ? -30 : 0, size: tilted ? 130 : 50 },
        { label: yLabel, size: fit }
      ],
      series: series
    };
    if (tilted) {
      opts.padding = [null, 80, null, null]; // the last tilted label runs right of its bar
    }
    return new uPlot(opts, columns, el);
  }

  function days(el, d) {
    var n = d.labels.length;
    return new uPlot({
      width: WIDTH, height: HEIGHT,
      scales: { x: { time: false, range: [-0.5, n - 0.5] }, pct: { range: function (u, lo, hi) { return [0, Math.max(5, hi * 1.2)]; } } },
      axes: [
        { label: 'day (UTC)', values: function (u, s) { return s.map(function (v) { return Number.isInteger(v) ? d.labels[v] : ''; }); } },
        { label: 'frames', size: fit },
        { scale: 'pct', side: 1, label: 'janky %', grid: { show: false }, size: fit }
      ],
      series: [
        { label: 'day', value: function (u, v) { return v == null ? '' : d.labels[v]; } },
        { label: 'frames', fill: 'rgba(89,161,79,0.5)', stroke: '#59a14f', paths: bars(), points: { show: false } },
        { label: 'janky %', scale: 'pct', stroke: '#e15759', width: 2, points: { show: true, size: 8, fill: '#e15759' } }
      ]
    }, [indices(n), d.frames, d.jankPercent], el);
  }

  // Painted pixels, and of those the coloured ones: axes, grid and text are grey, the data (bars,
  // lines) is coloured, so an empty chart has painted pixels but few coloured ones.
  function painted(el) {
    var n = 0, coloured = 0;
    el.querySelectorAll('canvas').forEach(function (c) {
      var px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (var i = 0; i < px.length; i += 4) {
        if (px[i + 3] === 0) continue;
        n++;
        var hi = Math.max(px[i], px[i + 1], px[i + 2]), lo = Math.min(px[i], px[i + 1], px[i + 2]);
        if (hi - lo > 40) coloured++;
      }
    });
    el.setAttribute('data-painted-pixels', String(n));
    el.setAttribute('data-coloured-pixels', String(coloured));
  }

  var charts = [
    ['chart-frames', function (el) { return frameTimes(el, data.frames); }],
    ['chart-cpu', function (el) { return histogram(el, data.cpu, data.cpu.marks, 'frame time'); }],
    ['chart-causes', function (el) { return causes(el, data.causes); }],
    ['chart-days', function (el) { return days(el, data.days); }],
    ['chart-gpu', function (el) { return histogram(el, data.gpu, [], 'GPU time'); }],
    // Scene names are long: tilted, so neighbours never run into each other.
    ['chart-scenes', function (el) { return stacked(el, data.scenes.labels, data.scenes.levels, 'scene', 'frames by Matrix level', true); }],
    ['chart-frametimeline', function (el) { return stacked(el, data.frameTimeline.labels, data.frameTimeline.parts, 'FrameTimeline type', 'frames', true); }]
  ];
  charts.forEach(function (c) {
    var el = document.getElementById(c[0]);
    if (!el) return; // a chart the data has nothing for (no scenes, no FrameTimeline)
    c[1](el);
    // uPlot draws in a microtask queued by the constructor; this one runs after it.
    Promise.resolve().then(function () { painted(el); });
  });
  Promise.resolve().then(function () { document.documentElement.setAttribute('data-charts', 'drawn'); });
})();
