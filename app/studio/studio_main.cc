// `systolic-studio [FILE] [--screenshot OUT.png]
//    [--view graph|timeline|text|recompilations|sharding|memory|ops|roofline|utilization]`
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>

#include "app/studio/main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("Systolic Studio");
  QApplication::setApplicationName("Systolic Studio");
  QApplication::setApplicationVersion("0.1");

  QCommandLineParser parser;
  parser.setApplicationDescription(
      "Profiler and visual debugger for XLA programs on simulated systolic-array chips.");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("file", "A program (HLO text, StableHLO) or a profile to open.");
  QCommandLineOption screenshot("screenshot", "Render the window to a PNG file and exit.", "png");
  QCommandLineOption view("view", "The view to show: graph, timeline, text, recompilations, sharding, memory, ops, roofline or utilization.", "view");
  parser.addOption(screenshot);
  parser.addOption(view);
  parser.process(app);

  std::optional<systolic::studio::MainWindow::View> wanted;
  if (parser.isSet(view)) {
    wanted = systolic::studio::MainWindow::ParseView(parser.value(view));
    if (!wanted) {
      std::fprintf(stderr, "systolic-studio: unknown view '%s' (graph, timeline, text, recompilations, sharding, memory, ops, roofline or utilization)\n",
                   parser.value(view).toLocal8Bit().constData());
      return 2;
    }
  }

  systolic::studio::MainWindow window;
  const QStringList files = parser.positionalArguments();
  if (!files.isEmpty()) {
    QString error;
    if (!window.OpenFile(files.first(), &error)) {
      std::fprintf(stderr, "systolic-studio: %s\n", error.toLocal8Bit().constData());
      if (parser.isSet(screenshot)) return 1;
    }
  }
  if (wanted) window.ShowView(*wanted);
  window.show();
  if (parser.isSet(screenshot)) {
    // Wait for stages to parse and graphs to lay out before grabbing.
    window.WhenIdle([&] {
      const bool ok = window.SaveScreenshot(parser.value(screenshot));
      if (!ok) {
        std::fprintf(stderr, "systolic-studio: cannot write %s\n",
                     parser.value(screenshot).toLocal8Bit().constData());
      }
      QApplication::exit(ok ? 0 : 1);
    });
  }
  return app.exec();
}
