// `systolic-studio [FILE] [--run CHIP[:TOPOLOGY[:STEPS]]]... [--compare OTHER.sysprof]
//    [--screenshot OUT.png] [--view graph|timeline|text|…|comparison]`
#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTimer>
#include <cstdio>
#include <cstring>

#include "app/studio/main_window.h"
#include "views/error_dialog.h"
#include "views/program_runner.h"
#include "views/studio_theme.h"

namespace {

void SetApplicationNames() {
  QCoreApplication::setOrganizationName("Systolic Studio");
  QCoreApplication::setApplicationName("Systolic Studio");
  QCoreApplication::setApplicationVersion(SYSTOLIC_VERSION);
}

// --help and --version print and exit before any window exists, so they
// work without a display (a QApplication aborts when there is none).
bool OnlyPrints(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    for (const char* flag : {"-h", "--help", "--help-all", "-?", "-v", "--version"}) {
      if (std::strcmp(argv[i], flag) == 0) return true;
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "Profiler and visual debugger for XLA programs on simulated systolic-array chips.");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("file", "A program (HLO text, StableHLO) or a profile to open.");
  QCommandLineOption screenshot("screenshot", "Render the window to a PNG file and exit.", "png");
  QCommandLineOption view("view", "The view to show: graph, timeline, text, recompilations, sharding, memory, ops, roofline, utilization or comparison.", "view");
  QCommandLineOption compare("compare", "Compare the opened profile's run with this profile's (the Comparison view).", "profile");
  parser.addOption(screenshot);
  parser.addOption(view);
  QCommandLineOption run("run", "Compile and run the program on CHIP[:TOPOLOGY[:STEPS]] (repeatable: each run joins the session and is compared with the one before).", "run");
  parser.addOption(compare);
  QCommandLineOption theme("theme", "The colours: system, light or dark (default: as last chosen in View > Theme).", "theme");
  QCommandLineOption simulate("simulate", "Simulate the opened real profile's programs on CHIP and show simulated beside measured time (the Op profile view).", "chip");
  parser.addOption(run);
  parser.addOption(theme);
  parser.addOption(simulate);
  if (OnlyPrints(argc, argv)) {
    QCoreApplication text_only(argc, argv);
    SetApplicationNames();
    parser.process(text_only);  // prints and exits
    return 0;
  }

  QApplication app(argc, argv);
  SetApplicationNames();
  parser.process(app);

  std::vector<systolic::views::ProgramRunRequest> runs;
  for (const QString& text : parser.values(run)) {
    absl::StatusOr<systolic::views::ProgramRunRequest> request = systolic::views::ParseRunRequest(text.toStdString());
    if (!request.ok()) {
      std::fprintf(stderr, "systolic-studio: --run %s\n", std::string(request.status().message()).c_str());
      return 2;
    }
    runs.push_back(*std::move(request));
  }

  const QString theme_name = parser.isSet(theme) ? parser.value(theme) : QSettings().value("view/theme", "system").toString();
  const std::optional<systolic::views::Theme> chosen_theme = systolic::views::ParseTheme(theme_name);
  if (!chosen_theme) {
    std::fprintf(stderr, "systolic-studio: unknown theme '%s' (system, light or dark)\n", theme_name.toLocal8Bit().constData());
    return 2;
  }
  systolic::views::ApplyTheme(*chosen_theme);

  std::optional<systolic::studio::MainWindow::View> wanted;
  if (parser.isSet(view)) {
    wanted = systolic::studio::MainWindow::ParseView(parser.value(view));
    if (!wanted) {
      std::fprintf(stderr, "systolic-studio: unknown view '%s' (graph, timeline, text, recompilations, sharding, memory, ops, roofline, utilization or comparison)\n",
                   parser.value(view).toLocal8Bit().constData());
      return 2;
    }
  }

  systolic::studio::MainWindow window;
  const QStringList files = parser.positionalArguments();
  if (!files.isEmpty() && parser.isSet(screenshot)) {
    QString error;
    bool ok = window.OpenFile(files.first(), &error);
    for (const systolic::views::ProgramRunRequest& request : runs) ok = ok && window.RunProgram(request, &error);
    ok = ok && (!parser.isSet(compare) || window.CompareWith(parser.value(compare), &error));
    ok = ok && (!parser.isSet(simulate) || window.CompareWithSimulation(parser.value(simulate), &error));
    if (!ok) {
      std::fprintf(stderr, "systolic-studio: %s\n", error.toLocal8Bit().constData());
      return 1;
    }
  }
  if (wanted) window.ShowView(*wanted);
  // Screenshots are drawn at one size whatever the screen, so they compare.
  if (parser.isSet(screenshot)) window.resize(1600, 960);
  window.show();
  // A file that does not open is said in the window, where the user looks.
  if (!files.isEmpty() && !parser.isSet(screenshot)) {
    const QString other = parser.isSet(compare) ? parser.value(compare) : QString();
    const QString simulated_chip = parser.isSet(simulate) ? parser.value(simulate) : QString();
    QTimer::singleShot(0, &window, [&window, file = files.first(), wanted, other, runs, simulated_chip] {
      if (!window.OpenAndReport(file)) return;
      QString error;
      for (const systolic::views::ProgramRunRequest& request : runs) {
        if (!window.RunProgram(request, &error)) {
          if (!error.isEmpty()) systolic::views::ShowErrorDialog(&window, "Compile and run failed", error.toStdString());
          break;
        }
      }
      if (!other.isEmpty() && !window.CompareWith(other, &error)) {
        std::fprintf(stderr, "systolic-studio: %s\n", error.toLocal8Bit().constData());
      }
      if (!simulated_chip.isEmpty() && !window.CompareWithSimulation(simulated_chip, &error) && !error.isEmpty()) {
        systolic::views::ShowErrorDialog(&window, "Cannot compare with the simulation", error.toStdString());
      }
      if (wanted) window.ShowView(*wanted);
    });
  }
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
