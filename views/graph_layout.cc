#include "views/graph_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <QColor>
#include <QElapsedTimer>
#include <QLineF>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <string>

#include "views/studio_palette.h"

namespace systolic::views {
namespace {

// Graphviz's context and global state are shared by every layout.
std::mutex& GraphvizMutex() {
  static std::mutex mutex;
  return mutex;
}

GVC_t* Context() {
  static GVC_t* context = [] {
    agseterr(AGERR);  // warnings (e.g. about label placement) are not errors
    return gvContext();
  }();
  return context;
}

// Graphviz wants char* for names and values it never writes to.
char* C(const char* s) { return const_cast<char*>(s); }

Agsym_t* Declare(Agraph_t* g, int kind, const char* name, const char* fallback) {
  return agattr(g, kind, C(name), C(fallback));
}

void Set(void* object, Agsym_t* symbol, const std::string& value) {
  agxset(object, symbol, C(value.c_str()));
}

std::string Inches(double points) { return std::to_string(points / 72.0); }

std::string Hex(const QColor& color) { return color.name().toStdString(); }

// Labels sit in their edge's path while the edges cross at most this many
// ranks in all: dot gives each label a node of its own there, doubling every
// span. Past it, dot's x placement (a network simplex over a node per rank
// crossed, each iteration costing about its whole size) would take seconds,
// so labels are placed beside their edges after the layout (xlabel) and the
// simplex stops after kSimplexIterationsPerNode × nodes; smaller graphs
// settle well within that.
constexpr int64_t kInlineLabelRanks = 1000;
constexpr const char* kSimplexIterationsPerNode = "10";

// The ranks the edges cross, summed, from dot's first phase (ranking, next
// to no time); `g` is left as it was, not laid out.
int64_t RanksCrossed(GVC_t* gvc, Agraph_t* g, Agsym_t* phase, const std::vector<Agedge_t*>& edges) {
  Set(g, phase, "1");
  int64_t crossed = 0;
  if (gvLayout(gvc, g, "dot") == 0) {
    for (Agedge_t* e : edges) crossed += std::abs(ND_rank(aghead(e)) - ND_rank(agtail(e)));
    gvFreeLayout(gvc, g);
  }
  Set(g, phase, "");
  // dot also wrote each node's rank as an attribute, which an export would carry.
  if (Agsym_t* rank = agattr(g, AGNODE, C("rank"), nullptr)) {
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) Set(n, rank, "");
  }
  return crossed;
}

QPolygonF Arrowhead(QPointF base, QPointF tip) {
  QLineF line(tip, base);
  if (line.length() < 1e-6) return {};
  const QPointF unit = (base - tip) / line.length();
  const QPointF normal(-unit.y(), unit.x());
  const double length = std::min(8.0, std::max(4.0, line.length()));
  const QPointF back = tip + unit * length;
  return QPolygonF({tip, back + normal * 3.5, back - normal * 3.5});
}

}  // namespace

GraphLayoutResult GraphLayout::Run(const analysis::VisibleGraph& graph, const std::vector<QSizeF>& node_sizes,
                                   const GraphLayoutOptions& options) {
  GraphLayoutResult result;
  QElapsedTimer timer;
  timer.start();
  std::lock_guard<std::mutex> lock(GraphvizMutex());
  GVC_t* gvc = Context();

  Agraph_t* g = agopen(C("hlo"), Agdirected, nullptr);
  Declare(g, AGRAPH, "rankdir", "TB");
  Declare(g, AGRAPH, "nodesep", "0.3");
  Declare(g, AGRAPH, "ranksep", "0.4");
  Declare(g, AGRAPH, "newrank", "true");
  Agsym_t* phase = Declare(g, AGRAPH, "phase", "");
  Declare(g, AGRAPH, "fontname", "Helvetica");
  Agsym_t* graph_label = Declare(g, AGRAPH, "label", "");
  Agsym_t* graph_fontsize = Declare(g, AGRAPH, "fontsize", "10");
  Agsym_t* graph_style = Declare(g, AGRAPH, "style", "");
  Agsym_t* graph_color = Declare(g, AGRAPH, "color", "black");
  Declare(g, AGRAPH, "margin", "8");
  Declare(g, AGRAPH, "labeljust", "l");  // cluster titles are drawn at the left
  Declare(g, AGNODE, "shape", "box");
  Declare(g, AGNODE, "fixedsize", "true");
  Declare(g, AGNODE, "fontname", "Helvetica");
  Declare(g, AGNODE, "fontsize", "9");
  Agsym_t* node_width = Declare(g, AGNODE, "width", "1");
  Agsym_t* node_height = Declare(g, AGNODE, "height", "0.5");
  Agsym_t* node_label = Declare(g, AGNODE, "label", "");
  Agsym_t* node_style = Declare(g, AGNODE, "style", "");
  Agsym_t* node_fill = Declare(g, AGNODE, "fillcolor", "white");
  Agsym_t* node_color = Declare(g, AGNODE, "color", "black");
  Declare(g, AGEDGE, "fontname", "Helvetica");
  Declare(g, AGEDGE, "fontsize", "8");
  Declare(g, AGEDGE, "arrowsize", "0.6");
  Agsym_t* edge_label = Declare(g, AGEDGE, "label", "");
  Agsym_t* edge_xlabel = Declare(g, AGEDGE, "xlabel", "");
  Agsym_t* edge_style = Declare(g, AGEDGE, "style", "");

  const StudioPalette& palette = StudioPalette::Get();
  std::vector<Agraph_t*> clusters;
  clusters.reserve(graph.clusters.size());
  for (size_t i = 0; i < graph.clusters.size(); ++i) {
    const analysis::GraphCluster& c = graph.clusters[i];
    Agraph_t* parent = c.parent >= 0 ? clusters[c.parent] : g;
    const std::string name = "cluster_" + std::to_string(i);
    Agraph_t* sub = agsubg(parent, C(name.c_str()), 1);
    Set(sub, graph_label, c.label);
    Set(sub, graph_fontsize, "11");
    Set(sub, graph_style, c.kind == analysis::GraphGroupKind::kFusion ? "rounded" : "dashed");
    Set(sub, graph_color, Hex(palette.ForUnit(c.unit)));
    clusters.push_back(sub);
  }

  std::vector<Agnode_t*> nodes;
  nodes.reserve(graph.nodes.size());
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const analysis::GraphNode& n = graph.nodes[i];
    Agraph_t* owner = n.cluster >= 0 ? clusters[n.cluster] : g;
    const std::string name = "n" + std::to_string(i);
    Agnode_t* node = agnode(owner, C(name.c_str()), 1);
    const QSizeF size = i < node_sizes.size() ? node_sizes[i] : QSizeF(90, 40);
    Set(node, node_width, Inches(size.width()));
    Set(node, node_height, Inches(size.height()));
    if (options.want_dot) {
      Set(node, node_label, n.title + "\n" + n.subtitle + "\n" + n.shape);
      Set(node, node_style, n.expandable ? "filled,rounded,bold" : "filled,rounded");
      Set(node, node_fill, Hex(StudioPalette::Tint(palette.ForUnit(n.unit), 85)));
      Set(node, node_color, Hex(palette.ForUnit(n.unit)));
    }
    nodes.push_back(node);
  }

  std::vector<Agedge_t*> edges;
  edges.reserve(graph.edges.size());
  for (const analysis::GraphEdge& e : graph.edges) {
    Agedge_t* edge = agedge(g, nodes[e.from], nodes[e.to], nullptr, 1);
    if (e.control) Set(edge, edge_style, "dashed");
    edges.push_back(edge);
  }
  const bool inline_labels = RanksCrossed(gvc, g, phase, edges) <= kInlineLabelRanks;
  // Declared only here: an empty nslimit would mean no iterations at all.
  if (!inline_labels) Declare(g, AGRAPH, "nslimit", kSimplexIterationsPerNode);
  for (size_t i = 0; i < edges.size(); ++i) {
    const std::string& label = graph.edges[i].label;
    if (options.edge_labels && !label.empty()) Set(edges[i], inline_labels ? edge_label : edge_xlabel, label);
  }

  if (gvLayout(gvc, g, "dot") != 0) {
    result.error = "Graphviz could not lay the graph out";
    agclose(g);
    return result;
  }
  const boxf bb = GD_bb(g);
  auto to_scene = [&](pointf p) { return QPointF(p.x - bb.LL.x, bb.UR.y - p.y); };
  result.bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);

  result.nodes.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const QPointF center = to_scene(ND_coord(nodes[i]));
    const double w = ND_width(nodes[i]) * 72, h = ND_height(nodes[i]) * 72;
    result.nodes[i] = QRectF(center.x() - w / 2, center.y() - h / 2, w, h);
  }
  result.clusters.resize(clusters.size());
  for (size_t i = 0; i < clusters.size(); ++i) {
    const boxf cb = GD_bb(clusters[i]);
    result.clusters[i] = QRectF(to_scene(cb.LL), to_scene(cb.UR)).normalized();
  }
  result.edges.resize(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) {
    EdgeGeometry& geometry = result.edges[i];
    const splines* spl = ED_spl(edges[i]);
    if (spl && spl->size > 0 && spl->list[0].size > 0) {
      const bezier& b = spl->list[0];
      geometry.path.moveTo(to_scene(b.list[0]));
      for (int p = 1; p + 2 < b.size; p += 3) {
        geometry.path.cubicTo(to_scene(b.list[p]), to_scene(b.list[p + 1]), to_scene(b.list[p + 2]));
      }
      const QPointF last = to_scene(b.list[b.size - 1]);
      if (b.eflag) {
        geometry.arrow = Arrowhead(last, to_scene(b.ep));
        geometry.path.lineTo(to_scene(b.ep) + (last - to_scene(b.ep)) * 0.5);
      } else if (b.size >= 2) {
        geometry.arrow = Arrowhead(to_scene(b.list[b.size - 2]), last);
      }
    } else {
      // No route: a straight line between the boxes keeps the edge visible.
      const QPointF from = result.nodes[graph.edges[i].from].center();
      const QPointF to = result.nodes[graph.edges[i].to].center();
      geometry.path.moveTo(from);
      geometry.path.lineTo(to);
      geometry.arrow = Arrowhead(from, to);
    }
    const textlabel_t* label = inline_labels ? ED_label(edges[i]) : ED_xlabel(edges[i]);
    if (label && label->set) {
      geometry.label_center = to_scene(label->pos);
      geometry.has_label = true;
    }
  }
  if (options.want_dot) {
    char* data = nullptr;
    unsigned int length = 0;
    if (gvRenderData(gvc, g, "dot", &data, &length) == 0 && data) {
      result.dot = QByteArray(data, int(length));
    }
    if (data) gvFreeRenderData(data);
  }
  gvFreeLayout(gvc, g);
  agclose(g);
  result.ok = true;
  result.seconds = double(timer.nsecsElapsed()) * 1e-9;
  return result;
}

}  // namespace systolic::views
