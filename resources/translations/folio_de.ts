<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>QObject</name>
    <message>
        <source>No question-summary model: choose a QS checkpoint folder (Model &gt; Choose QS Model).</source>
        <translation>Kein Fragen-Zusammenfassungs-Modell: Wählen Sie einen QS-Checkpoint-Ordner (Modell &gt; QS-Modell wählen).</translation>
    </message>
    <message>
        <source>Nothing to summarise: the document has no words.</source>
        <translation>Nichts zusammenzufassen: Das Dokument hat keine Wörter.</translation>
    </message>
    <message>
        <source>Head Grid</source>
        <translation>Kopfraster</translation>
    </message>
    <message>
        <source>Image Patches</source>
        <translation>Bildfelder</translation>
    </message>
</context>
<context>
    <name>QsTreeModel</name>
    <message>
        <source>suggested %1</source>
        <translation>vorgeschlagen %1</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>bearbeitet</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>angenommen</translation>
    </message>
</context>
<context>
    <name>folio</name>
    <message>
        <source>the file was not found (it may have been moved or deleted)</source>
        <translation>die Datei wurde nicht gefunden (sie wurde vielleicht verschoben oder gelöscht)</translation>
    </message>
    <message>
        <source>access to the file was refused</source>
        <translation>der Zugriff auf die Datei wurde verweigert</translation>
    </message>
    <message>
        <source>the load was cancelled before the page finished</source>
        <translation>das Laden wurde abgebrochen, bevor die Seite fertig war</translation>
    </message>
    <message>
        <source>the web engine gave no reason</source>
        <translation>die Web-Engine nannte keinen Grund</translation>
    </message>
    <message>
        <source>1 outside request blocked</source>
        <translation>1 Anfrage nach außen blockiert</translation>
    </message>
    <message>
        <source>%1 outside requests blocked</source>
        <translation>%1 Anfragen nach außen blockiert</translation>
    </message>
    <message>
        <source>Folio shows saved pages offline: every request that leaves the page&apos;s folder is blocked, so nothing is fetched from the web.</source>
        <translation>Folio zeigt gespeicherte Seiten offline: Jede Anfrage, die den Ordner der Seite verlässt, wird blockiert, also wird nichts aus dem Web geladen.</translation>
    </message>
    <message>
        <source>This page asked for %1:</source>
        <translation>Diese Seite fragte nach %1:</translation>
    </message>
    <message>
        <source>The page&apos;s own saved resources (%1) were shown; the blocked ones were not saved with it and change only how the page looks, not its text, DOM tree or fields. Click for the full list.</source>
        <translation>Die eigenen gespeicherten Ressourcen der Seite (%1) wurden angezeigt; die blockierten wurden nicht mit ihr gespeichert und ändern nur das Aussehen der Seite, nicht ihren Text, DOM-Baum oder ihre Felder. Klicken Sie für die vollständige Liste.</translation>
    </message>
    <message>
        <source>Missing style sheets and images change only how the page looks, not its text, DOM tree or fields. To see it as it looked, save it from the browser as &quot;Web Page, complete&quot; (the HTML with its _files folder) or as a single file (.mhtml) and open that. Click for the full list.</source>
        <translation>Fehlende Stylesheets und Bilder ändern nur das Aussehen der Seite, nicht ihren Text, DOM-Baum oder ihre Felder. Um sie so zu sehen, wie sie aussah, speichern Sie sie im Browser als „Webseite, komplett“ (das HTML mit seinem _files-Ordner) oder als einzelne Datei (.mhtml) und öffnen Sie diese. Klicken Sie für die vollständige Liste.</translation>
    </message>
    <message>
        <source>Rendered offline: %1 nodes placed on the page</source>
        <translation>Offline dargestellt: %1 Knoten auf der Seite platziert</translation>
    </message>
    <message>
        <source>, 1 saved resource shown</source>
        <translation>, 1 gespeicherte Ressource angezeigt</translation>
    </message>
    <message>
        <source>, %1 saved resources shown</source>
        <translation>, %1 gespeicherte Ressourcen angezeigt</translation>
    </message>
    <message>
        <source>%1 is shown as saved, with page scripts %2.</source>
        <translation>%1 wird wie gespeichert angezeigt, Seitenskripte %2.</translation>
    </message>
    <message>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>%1 nodes of the file are not on the rendered page (the head, hidden parts, or parts styles or scripts change); they stay in the DOM tree without a box.</source>
        <translation>%1 Knoten der Datei sind nicht auf der dargestellten Seite (der Kopf, verborgene Teile oder Teile, die Stile oder Skripte ändern); sie bleiben ohne Rahmen im DOM-Baum.</translation>
    </message>
    <message>
        <source>If parts of the page are missing because it builds them with JavaScript, tick &quot;Run page scripts&quot; (network access stays blocked).</source>
        <translation>Wenn Teile der Seite fehlen, weil sie sie mit JavaScript aufbaut, aktivieren Sie „Seitenskripte ausführen“ (der Netzwerkzugriff bleibt blockiert).</translation>
    </message>
    <message>
        <source>the page gave no layout</source>
        <translation>die Seite lieferte kein Layout</translation>
    </message>
    <message>
        <source>Could not render %1: %2</source>
        <translation>%1 konnte nicht dargestellt werden: %2</translation>
    </message>
    <message>
        <source>The page view and the node boxes are missing; the text, the DOM tree and the fields are read from the file itself and still work. Check that the file opens in a browser, then open it again (File &gt; Open Document) or tick &quot;Run page scripts&quot; to reload it.</source>
        <translation>Die Seitenansicht und die Knotenrahmen fehlen; Text, DOM-Baum und Felder werden aus der Datei selbst gelesen und funktionieren weiterhin. Prüfen Sie, ob sich die Datei in einem Browser öffnen lässt, und öffnen Sie sie dann erneut (Datei &gt; Dokument öffnen) oder aktivieren Sie „Seitenskripte ausführen“, um sie neu zu laden.</translation>
    </message>
    <message>
        <source>Anywhere</source>
        <translation>Überall</translation>
    </message>
    <message>
        <source>Page</source>
        <translation>Seite</translation>
    </message>
    <message>
        <source>Entity list</source>
        <translation>Entitätenliste</translation>
    </message>
    <message>
        <source>Link list</source>
        <translation>Verknüpfungsliste</translation>
    </message>
    <message>
        <source>Sections tab</source>
        <translation>Reiter Abschnitte</translation>
    </message>
    <message>
        <source>Questions dock</source>
        <translation>Fragen-Dock</translation>
    </message>
    <message>
        <source>Attention heatmap</source>
        <translation>Aufmerksamkeits-Heatmap</translation>
    </message>
    <message>
        <source>Open a document (scan, PDF, web page, FUNSD or Folio JSON) into the project</source>
        <translation>Ein Dokument (Scan, PDF, Webseite, FUNSD oder Folio-JSON) in das Projekt öffnen</translation>
    </message>
    <message>
        <source>New project</source>
        <translation>Neues Projekt</translation>
    </message>
    <message>
        <source>Open a project</source>
        <translation>Ein Projekt öffnen</translation>
    </message>
    <message>
        <source>Quit (the layout is saved)</source>
        <translation>Beenden (das Layout wird gespeichert)</translation>
    </message>
    <message>
        <source>This list of keys (Help &gt; Keyboard Shortcuts)</source>
        <translation>Diese Tastenliste (Hilfe &gt; Tastenkürzel)</translation>
    </message>
    <message>
        <source>Find an action by its name and run it (Help &gt; Find Action)</source>
        <translation>Eine Aktion über ihren Namen finden und ausführen (Hilfe &gt; Aktion suchen)</translation>
    </message>
    <message>
        <source>Next / previous document</source>
        <translation>Nächstes / vorheriges Dokument</translation>
    </message>
    <message>
        <source>Mark the document done</source>
        <translation>Das Dokument als fertig markieren</translation>
    </message>
    <message>
        <source>Undo (every edit is saved at once)</source>
        <translation>Rückgängig (jede Änderung wird sofort gespeichert)</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <source>Suggest Labels: run the current model on the document</source>
        <translation>Labels vorschlagen: das aktuelle Modell auf dem Dokument ausführen</translation>
    </message>
    <message>
        <source>Show Attention (opens the Attention dock)</source>
        <translation>Aufmerksamkeit anzeigen (öffnet das Aufmerksamkeits-Dock)</translation>
    </message>
    <message>
        <source>Extract Fields</source>
        <translation>Felder extrahieren</translation>
    </message>
    <message>
        <source>Generate the question-summary hierarchy</source>
        <translation>Die Fragen-Zusammenfassungs-Hierarchie erzeugen</translation>
    </message>
    <message>
        <source>Zoom</source>
        <translation>Zoom</translation>
    </message>
    <message>
        <source>Zoom in / out</source>
        <translation>Vergrößern / verkleinern</translation>
    </message>
    <message>
        <source>Fit the page to the window</source>
        <translation>Die Seite in das Fenster einpassen</translation>
    </message>
    <message>
        <source>Select words</source>
        <translation>Wörter auswählen</translation>
    </message>
    <message>
        <source>Label the selected words with the palette&apos;s label of that number</source>
        <translation>Die ausgewählten Wörter mit dem Label dieser Nummer aus der Palette versehen</translation>
    </message>
    <message>
        <source>Fix the selected word&apos;s text</source>
        <translation>Den Text des ausgewählten Worts korrigieren</translation>
    </message>
    <message>
        <source>Leave the region tool</source>
        <translation>Das Bereichswerkzeug verlassen</translation>
    </message>
    <message>
        <source>Accept the suggestion</source>
        <translation>Den Vorschlag annehmen</translation>
    </message>
    <message>
        <source>Reject the suggestion</source>
        <translation>Den Vorschlag ablehnen</translation>
    </message>
    <message>
        <source>Jump to the least certain suggestion</source>
        <translation>Zum unsichersten Vorschlag springen</translation>
    </message>
    <message>
        <source>Accept all suggestions</source>
        <translation>Alle Vorschläge annehmen</translation>
    </message>
    <message>
        <source>Merge the selected entities</source>
        <translation>Die ausgewählten Entitäten zusammenführen</translation>
    </message>
    <message>
        <source>Split the entity</source>
        <translation>Die Entität aufteilen</translation>
    </message>
    <message>
        <source>Link the two selected entities (key → value)</source>
        <translation>Die zwei ausgewählten Entitäten verknüpfen (Schlüssel → Wert)</translation>
    </message>
    <message>
        <source>Delete the entity</source>
        <translation>Die Entität löschen</translation>
    </message>
    <message>
        <source>Accept / reject the suggested link (with its two entities)</source>
        <translation>Die vorgeschlagene Verknüpfung annehmen / ablehnen (mit ihren zwei Entitäten)</translation>
    </message>
    <message>
        <source>Delete the link</source>
        <translation>Die Verknüpfung löschen</translation>
    </message>
    <message>
        <source>Split: start a new section at the selected word</source>
        <translation>Teilen: einen neuen Abschnitt beim ausgewählten Wort beginnen</translation>
    </message>
    <message>
        <source>Merge the section into the one before it</source>
        <translation>Den Abschnitt mit dem vorherigen zusammenführen</translation>
    </message>
    <message>
        <source>Promote / demote the section with its subsections</source>
        <translation>Den Abschnitt mit seinen Unterabschnitten höher / tiefer stufen</translation>
    </message>
    <message>
        <source>Rename the section</source>
        <translation>Den Abschnitt umbenennen</translation>
    </message>
    <message>
        <source>Add a question after the current one</source>
        <translation>Eine Frage nach der aktuellen hinzufügen</translation>
    </message>
    <message>
        <source>Add a follow-up question</source>
        <translation>Eine Folgefrage hinzufügen</translation>
    </message>
    <message>
        <source>Edit the question / the summary in place</source>
        <translation>Die Frage / die Zusammenfassung direkt bearbeiten</translation>
    </message>
    <message>
        <source>Delete the question with its follow-ups</source>
        <translation>Die Frage mit ihren Folgefragen löschen</translation>
    </message>
    <message>
        <source>Demote / promote</source>
        <translation>Tiefer / höher stufen</translation>
    </message>
    <message>
        <source>Move up / down</source>
        <translation>Nach oben / unten verschieben</translation>
    </message>
    <message>
        <source>Attach the selected words as evidence / clear the evidence</source>
        <translation>Die ausgewählten Wörter als Beleg anhängen / die Belege entfernen</translation>
    </message>
    <message>
        <source>Accept / reject the suggested question</source>
        <translation>Die vorgeschlagene Frage annehmen / ablehnen</translation>
    </message>
    <message>
        <source>Accept all suggested questions</source>
        <translation>Alle vorgeschlagenen Fragen annehmen</translation>
    </message>
    <message>
        <source>Regenerate below the current question</source>
        <translation>Unterhalb der aktuellen Frage neu erzeugen</translation>
    </message>
    <message>
        <source>Previous / next head</source>
        <translation>Vorheriger / nächster Kopf</translation>
    </message>
    <message>
        <source>Previous / next layer</source>
        <translation>Vorherige / nächste Schicht</translation>
    </message>
    <message>
        <source>Average over heads / over layers</source>
        <translation>Mittel über Köpfe / über Schichten</translation>
    </message>
    <message>
        <source>Ctrl+wheel</source>
        <translation>Strg+Mausrad</translation>
    </message>
    <message>
        <source>F or 0</source>
        <translation>F oder 0</translation>
    </message>
    <message>
        <source>Click / Shift-click / drag</source>
        <translation>Klick / Umschalt-Klick / Ziehen</translation>
    </message>
    <message>
        <source>F2 or double-click</source>
        <translation>F2 oder Doppelklick</translation>
    </message>
</context>
<context>
    <name>folio::AboutDialog</name>
    <message>
        <source>About Folio</source>
        <translation>Über Folio</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Folio %1&lt;/h2&gt;&lt;p&gt;A studio for structure-aware document extraction: open a web page or a scan, run layout transformers on it, correct what they find, look inside their attention, train on your corrections and export datasets.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Folio %1&lt;/h2&gt;&lt;p&gt;Ein Studio für strukturbewusste Dokumentextraktion: Öffnen Sie eine Webseite oder einen Scan, lassen Sie Layout-Transformer darauf laufen, korrigieren Sie, was sie finden, schauen Sie in ihre Aufmerksamkeit, trainieren Sie mit Ihren Korrekturen und exportieren Sie Datensätze.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Models Folio ships&lt;/h3&gt;&lt;p&gt;Trained by Folio itself (no pretrained weights were downloaded); each folder&apos;s RECIPE.md reproduces it.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Modelle, die Folio mitliefert&lt;/h3&gt;&lt;p&gt;Von Folio selbst trainiert (es wurden keine vortrainierten Gewichte heruntergeladen); die RECIPE.md jedes Ordners reproduziert es.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>not installed</source>
        <translation>nicht installiert</translation>
    </message>
</context>
<context>
    <name>folio::AnnotationActions</name>
    <message>
        <source>Next document</source>
        <translation>Nächstes Dokument</translation>
    </message>
    <message>
        <source>Previous document</source>
        <translation>Vorheriges Dokument</translation>
    </message>
    <message>
        <source>Next uncertain prediction</source>
        <translation>Nächste unsichere Vorhersage</translation>
    </message>
    <message>
        <source>Accept suggestion</source>
        <translation>Vorschlag annehmen</translation>
    </message>
    <message>
        <source>Reject suggestion</source>
        <translation>Vorschlag ablehnen</translation>
    </message>
    <message>
        <source>Accept all suggestions</source>
        <translation>Alle Vorschläge annehmen</translation>
    </message>
    <message>
        <source>Mark document done</source>
        <translation>Dokument als fertig markieren</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Wiederholen</translation>
    </message>
</context>
<context>
    <name>folio::AnnotationDock</name>
    <message>
        <source>Entities</source>
        <translation>Entitäten</translation>
    </message>
    <message>
        <source>Links</source>
        <translation>Verknüpfungen</translation>
    </message>
    <message>
        <source>  [suggested %1%]</source>
        <translation>  [vorgeschlagen %1%]</translation>
    </message>
</context>
<context>
    <name>folio::AnnotationSession</name>
    <message>
        <source>Merge with %1&apos;s version</source>
        <translation>Mit der Version von %1 zusammenführen</translation>
    </message>
    <message>
        <source>the stored</source>
        <translation>die gespeicherte</translation>
    </message>
    <message>
        <source>Model suggestions (%1)</source>
        <translation>Modellvorschläge (%1)</translation>
    </message>
    <message>
        <source>Label %1 word(s) %2</source>
        <translation>%1 Wort/Wörter als %2 labeln</translation>
    </message>
    <message>
        <source>Merge %1 entities</source>
        <translation>%1 Entitäten zusammenführen</translation>
    </message>
    <message>
        <source>Split entity into %1</source>
        <translation>Entität in %1 aufteilen</translation>
    </message>
    <message>
        <source>Relabel as %1</source>
        <translation>Umlabeln als %1</translation>
    </message>
    <message>
        <source>Delete entity</source>
        <translation>Entität löschen</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>Verknüpfen</translation>
    </message>
    <message>
        <source>Delete link</source>
        <translation>Verknüpfung löschen</translation>
    </message>
    <message>
        <source>Accept suggestion</source>
        <translation>Vorschlag annehmen</translation>
    </message>
    <message>
        <source>Reject suggestion</source>
        <translation>Vorschlag ablehnen</translation>
    </message>
    <message>
        <source>Accept link</source>
        <translation>Verknüpfung annehmen</translation>
    </message>
    <message>
        <source>Reject link</source>
        <translation>Verknüpfung ablehnen</translation>
    </message>
    <message>
        <source>Accept %1 suggestions</source>
        <translation>%1 Vorschläge annehmen</translation>
    </message>
    <message>
        <source>Edit word text</source>
        <translation>Worttext bearbeiten</translation>
    </message>
</context>
<context>
    <name>folio::AttentionPanel</name>
    <message>
        <source>avg</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <source>Layer (avg = mean over layers). Up/Down in the heatmap.</source>
        <translation>Schicht (Mittel = Mittelwert über die Schichten). Hoch/Runter in der Heatmap.</translation>
    </message>
    <message>
        <source>Head (avg = mean over heads). Left/Right in the heatmap.</source>
        <translation>Kopf (Mittel = Mittelwert über die Köpfe). Links/Rechts in der Heatmap.</translation>
    </message>
    <message>
        <source>selection attends to</source>
        <translation>Auswahl achtet auf</translation>
    </message>
    <message>
        <source>attends to selection</source>
        <translation>achtet auf die Auswahl</translation>
    </message>
    <message>
        <source>Re-run ablated</source>
        <translation>Mit Abschaltung neu ausführen</translation>
    </message>
    <message>
        <source>Run the model again with the ticked bias families switched off and show which labels change</source>
        <translation>Das Modell mit abgeschalteten angekreuzten Bias-Familien erneut ausführen und zeigen, welche Labels sich ändern</translation>
    </message>
    <message>
        <source>PNG…</source>
        <translation>PNG…</translation>
    </message>
    <message>
        <source>SVG…</source>
        <translation>SVG…</translation>
    </message>
    <message>
        <source>Matrices…</source>
        <translation>Matrizen…</translation>
    </message>
    <message>
        <source>Hierarchy bias…</source>
        <translation>Hierarchie-Bias…</translation>
    </message>
    <message>
        <source>Show a HIBRIDS checkpoint&apos;s hierarchical bias between this document&apos;s sections</source>
        <translation>Den hierarchischen Bias eines HIBRIDS-Checkpoints zwischen den Abschnitten dieses Dokuments anzeigen</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>Kopf</translation>
    </message>
    <message>
        <source>Ablate:</source>
        <translation>Abschalten:</translation>
    </message>
    <message>
        <source>HIBRIDS checkpoint folder</source>
        <translation>HIBRIDS-Checkpoint-Ordner</translation>
    </message>
    <message>
        <source>Reading the hierarchical bias of %1…</source>
        <translation>Hierarchischer Bias von %1 wird gelesen…</translation>
    </message>
    <message>
        <source>Hierarchical bias: %1 table(s), %2 head(s), %3 sections</source>
        <translation>Hierarchischer Bias: %1 Tabelle(n), %2 Kopf/Köpfe, %3 Abschnitte</translation>
    </message>
    <message>
        <source>hierarchical bias · %1 · %2 · sections</source>
        <translation>hierarchischer Bias · %1 · %2 · Abschnitte</translation>
    </message>
    <message>
        <source>mean of %1 tables</source>
        <translation>Mittel von %1 Tabellen</translation>
    </message>
    <message>
        <source>table %1</source>
        <translation>Tabelle %1</translation>
    </message>
    <message>
        <source>mean of %1 heads</source>
        <translation>Mittel von %1 Köpfen</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>Kopf %1</translation>
    </message>
    <message>
        <source>%1 blockwise outputs not shown as matrices (%2)</source>
        <translation>%1 blockweise Ausgaben nicht als Matrizen angezeigt (%2)</translation>
    </message>
    <message>
        <source>Tick at least one bias family to switch off.</source>
        <translation>Kreuzen Sie mindestens eine Bias-Familie zum Abschalten an.</translation>
    </message>
    <message>
        <source>Run a checkpoint on this document first.</source>
        <translation>Führen Sie zuerst einen Checkpoint auf diesem Dokument aus.</translation>
    </message>
    <message>
        <source>The document has no words to run the model on.</source>
        <translation>Das Dokument hat keine Wörter, auf denen das Modell laufen könnte.</translation>
    </message>
    <message>
        <source>Running %1 without %2…</source>
        <translation>%1 wird ohne %2 ausgeführt…</translation>
    </message>
    <message>
        <source>Running %1 with tracing…</source>
        <translation>%1 wird mit Tracing ausgeführt…</translation>
    </message>
    <message>
        <source>%1: %2 → %3</source>
        <translation>%1: %2 → %3</translation>
    </message>
    <message>
        <source>Without %1 no predicted label changes.</source>
        <translation>Ohne %1 ändert sich kein vorhergesagtes Label.</translation>
    </message>
    <message>
        <source>Without %1, %2 word labels change: %3</source>
        <translation>Ohne %1 ändern sich %2 Wortlabels: %3</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>attention probabilities</source>
        <translation>Aufmerksamkeitswahrscheinlichkeiten</translation>
    </message>
    <message>
        <source>bias term %1 (%2)</source>
        <translation>Bias-Term %1 (%2)</translation>
    </message>
    <message>
        <source>attention without %1</source>
        <translation>Aufmerksamkeit ohne %1</translation>
    </message>
    <message>
        <source>attention minus attention without %1</source>
        <translation>Aufmerksamkeit minus Aufmerksamkeit ohne %1</translation>
    </message>
    <message>
        <source>No attention trace yet: run a checkpoint with tracing on.</source>
        <translation>Noch keine Aufmerksamkeitsspur: Führen Sie einen Checkpoint mit aktiviertem Tracing aus.</translation>
    </message>
    <message>
        <source>Word %1 is not part of any %2 in this trace.</source>
        <translation>Wort %1 gehört in dieser Spur zu keinem %2.</translation>
    </message>
    <message>
        <source>No words under that node carry attention.</source>
        <translation>Keine Wörter unter diesem Knoten tragen Aufmerksamkeit.</translation>
    </message>
    <message>
        <source>Nothing to export: no trace.</source>
        <translation>Nichts zu exportieren: keine Spur.</translation>
    </message>
    <message>
        <source>Export attention</source>
        <translation>Aufmerksamkeit exportieren</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>%1 exportiert</translation>
    </message>
    <message>
        <source>Attention heatmap</source>
        <translation>Aufmerksamkeits-Heatmap</translation>
    </message>
    <message>
        <source>How much each token attends to every other token, for the chosen layer and head</source>
        <translation>Wie stark jedes Token jedes andere Token beachtet, für die gewählte Schicht und den gewählten Kopf</translation>
    </message>
    <message>
        <source>Hierarchy attention heatmap</source>
        <translation>Aufmerksamkeits-Heatmap der Hierarchie</translation>
    </message>
</context>
<context>
    <name>folio::CommandPalette</name>
    <message>
        <source>Find Action</source>
        <translation>Aktion suchen</translation>
    </message>
    <message>
        <source>Type an action&apos;s name (Enter runs it, Esc closes)</source>
        <translation>Namen einer Aktion eingeben (Eingabe führt sie aus, Esc schließt)</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>Menü</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>&amp;Find Action…</source>
        <translation>&amp;Aktion suchen…</translation>
    </message>
    <message>
        <source>Find action</source>
        <translation>Aktion suchen</translation>
    </message>
    <message>
        <source>Matching actions</source>
        <translation>Passende Aktionen</translation>
    </message>
</context>
<context>
    <name>folio::DatasetDialog</name>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Import Dataset</source>
        <translation>Datensatz importieren</translation>
    </message>
    <message>
        <source>Export Dataset</source>
        <translation>Datensatz exportieren</translation>
    </message>
    <message>
        <source>Files to import (separated by ;)</source>
        <translation>Zu importierende Dateien (durch ; getrennt)</translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation>Ausgabeordner</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>All documents</source>
        <translation>Alle Dokumente</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>In Arbeit</translation>
    </message>
    <message>
        <source>To do</source>
        <translation>Offen</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Dokumente</translation>
    </message>
    <message>
        <source>Also export model suggestions not yet reviewed</source>
        <translation>Auch noch nicht geprüfte Modellvorschläge exportieren</translation>
    </message>
    <message>
        <source>Documents already in the project (same source) get the imported annotations; nothing is written unless every file reads cleanly.</source>
        <translation>Dokumente, die schon im Projekt sind (gleiche Quelle), erhalten die importierten Annotationen; nichts wird geschrieben, solange nicht jede Datei fehlerfrei gelesen wird.</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Cancelled: nothing was imported</source>
        <translation>Abgebrochen: Es wurde nichts importiert</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Files to import</source>
        <translation>Zu importierende Dateien</translation>
    </message>
    <message>
        <source>Dataset files (*.json *.jsonl *.txt *.conll *.bio);;All files (*)</source>
        <translation>Datensatzdateien (*.json *.jsonl *.txt *.conll *.bio);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Export into</source>
        <translation>Exportieren nach</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Choose the files to import</source>
        <translation>Die zu importierenden Dateien wählen</translation>
    </message>
    <message>
        <source>Choose an output folder</source>
        <translation>Einen Ausgabeordner wählen</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Wird gestartet…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
</context>
<context>
    <name>folio::DatasetJob</name>
    <message>
        <source>Another import or export is still running</source>
        <translation>Ein anderer Import oder Export läuft noch</translation>
    </message>
    <message>
        <source>%1: not a format Folio can import</source>
        <translation>%1: kein Format, das Folio importieren kann</translation>
    </message>
    <message>
        <source>No file to import</source>
        <translation>Keine Datei zum Importieren</translation>
    </message>
    <message>
        <source>Reading %1</source>
        <translation>%1 wird gelesen</translation>
    </message>
    <message numerus="yes">
        <source>Storing %n document(s) in one transaction</source>
        <translation>
            <numerusform>%n Dokument wird in einer Transaktion gespeichert</numerusform>
            <numerusform>%n Dokumente werden in einer Transaktion gespeichert</numerusform>
        </translation>
    </message>
    <message>
        <source>Imported %1: %2 document(s) added, %3 updated</source>
        <translation>%1 importiert: %2 Dokument(e) hinzugefügt, %3 aktualisiert</translation>
    </message>
    <message>
        <source>%1: not a dataset format</source>
        <translation>%1: kein Datensatzformat</translation>
    </message>
    <message>
        <source>Reading the project</source>
        <translation>Das Projekt wird gelesen</translation>
    </message>
    <message numerus="yes">
        <source>Writing %n document(s)</source>
        <translation>
            <numerusform>%n Dokument wird geschrieben</numerusform>
            <numerusform>%n Dokumente werden geschrieben</numerusform>
        </translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n document(s) as %1 into %2 (%3 file(s))</source>
        <translation>
            <numerusform>%n Dokument als %1 nach %2 exportiert (%3 Datei(en))</numerusform>
            <numerusform>%n Dokumente als %1 nach %2 exportiert (%3 Datei(en))</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>folio::DocumentListPanel</name>
    <message>
        <source>Project order</source>
        <translation>Projektreihenfolge</translation>
    </message>
    <message>
        <source>Most uncertain first</source>
        <translation>Unsicherste zuerst</translation>
    </message>
    <message>
        <source>  (%1 to review)</source>
        <translation>  (%1 zu prüfen)</translation>
    </message>
    <message>
        <source>%1
Model uncertainty %2</source>
        <translation>%1
Modellunsicherheit %2</translation>
    </message>
    <message>
        <source>Random order</source>
        <translation>Zufällige Reihenfolge</translation>
    </message>
    <message>
        <source>The order of the list and of Next / Previous document: the project&apos;s pages, the current model&apos;s most uncertain first (refreshed when the background retraining updates the model), or at random (the same shuffle each time)</source>
        <translation>Die Reihenfolge der Liste und von Nächstes / Vorheriges Dokument: die Seiten des Projekts, die unsichersten des aktuellen Modells zuerst (aufgefrischt, wenn das Neutraining im Hintergrund das Modell aktualisiert) oder zufällig (jedes Mal dieselbe Mischung)</translation>
    </message>
    <message>
        <source>Documents of the project</source>
        <translation>Dokumente des Projekts</translation>
    </message>
    <message>
        <source>Document order</source>
        <translation>Reihenfolge der Dokumente</translation>
    </message>
</context>
<context>
    <name>folio::DomTreeModel</name>
    <message>
        <source>DOM</source>
        <translation>DOM</translation>
    </message>
</context>
<context>
    <name>folio::DomTreePanel</name>
    <message>
        <source>Find tag or text</source>
        <translation>Tag oder Text suchen</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Weiter</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>kein Treffer</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Id: %1
</source>
        <translation>Id: %1
</translation>
    </message>
    <message>
        <source>XPath: %1
</source>
        <translation>XPath: %1
</translation>
    </message>
    <message>
        <source>Kind: %1</source>
        <translation>Art: %1</translation>
    </message>
    <message>
        <source>  Tag: %1</source>
        <translation>  Tag: %1</translation>
    </message>
    <message>
        <source>Box: x %1, y %2, w %3, h %4%5
</source>
        <translation>Rahmen: x %1, y %2, b %3, h %4%5
</translation>
    </message>
    <message>
        <source> (hidden)</source>
        <translation> (verborgen)</translation>
    </message>
    <message>
        <source>Text: %1
</source>
        <translation>Text: %1
</translation>
    </message>
</context>
<context>
    <name>folio::DropOpener</name>
    <message>
        <source>Cannot open %1: Folio opens scans (PNG, JPEG, TIFF), PDFs, HTML and MHTML pages, Folio JSON and .folio projects</source>
        <translation>%1 kann nicht geöffnet werden: Folio öffnet Scans (PNG, JPEG, TIFF), PDFs, HTML- und MHTML-Seiten, Folio-JSON und .folio-Projekte</translation>
    </message>
</context>
<context>
    <name>folio::FieldSetDialog</name>
    <message>
        <source>Field set of this project</source>
        <translation>Feldsatz dieses Projekts</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Product defaults</source>
        <translation>Produkt-Standardwerte</translation>
    </message>
    <message>
        <source>The fields Extract Fields looks for on every page of this project. A model trained before a change does not know the fields added since.</source>
        <translation>Die Felder, nach denen Felder extrahieren auf jeder Seite dieses Projekts sucht. Ein Modell, das vor einer Änderung trainiert wurde, kennt die seitdem hinzugefügten Felder nicht.</translation>
    </message>
    <message>
        <source>Fields to extract</source>
        <translation>Zu extrahierende Felder</translation>
    </message>
</context>
<context>
    <name>folio::FieldTrainingDialog</name>
    <message>
        <source>Train a field extractor on this project</source>
        <translation>Einen Feldextraktor auf diesem Projekt trainieren</translation>
    </message>
    <message>
        <source> min</source>
        <translation> Min.</translation>
    </message>
    <message>
        <source>Checkpoint folder</source>
        <translation>Checkpoint-Ordner</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Epochen</translation>
    </message>
    <message>
        <source>Time budget</source>
        <translation>Zeitbudget</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>Trainieren</translation>
    </message>
    <message>
        <source>%1 answered web pages (of %2); fields: %3.</source>
        <translation>%1 beantwortete Webseiten (von %2); Felder: %3.</translation>
    </message>
    <message>
        <source> No example value yet for %1: left out (the model will not know them).</source>
        <translation> Noch kein Beispielwert für %1: ausgelassen (das Modell wird sie nicht kennen).</translation>
    </message>
    <message>
        <source>Training on %1 pages…</source>
        <translation>Training auf %1 Seiten…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Done in %1 s (%2 steps)%3. Saved to %4</source>
        <translation>Fertig in %1 s (%2 Schritte)%3. Gespeichert in %4</translation>
    </message>
    <message>
        <source>, best dev F1 %1</source>
        <translation>, bestes Dev-F1 %1</translation>
    </message>
    <message>
        <source>Training log</source>
        <translation>Trainingsprotokoll</translation>
    </message>
</context>
<context>
    <name>folio::FieldsController</name>
    <message>
        <source>&amp;Extract Fields</source>
        <translation>&amp;Felder extrahieren</translation>
    </message>
    <message>
        <source>Field &amp;Set…</source>
        <translation>Feld&amp;satz…</translation>
    </message>
    <message>
        <source>Choose &amp;Field Extractor…</source>
        <translation>Feld&amp;extraktor wählen…</translation>
    </message>
    <message>
        <source>Train Field E&amp;xtractor on Project…</source>
        <translation>Feldextraktor auf Projekt trai&amp;nieren…</translation>
    </message>
    <message>
        <source>Export &amp;Fields…</source>
        <translation>Felder e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Open a project first</source>
        <translation>Öffnen Sie zuerst ein Projekt</translation>
    </message>
    <message>
        <source>Field set: %1</source>
        <translation>Feldsatz: %1</translation>
    </message>
    <message>
        <source>Field set saved. The field model %1 was not trained on %2: train it again on the project (Model &gt; Train Field Extractor) before trusting those fields.</source>
        <translation>Feldsatz gespeichert. Das Feldmodell %1 wurde nicht auf %2 trainiert: Trainieren Sie es erneut auf dem Projekt (Modell &gt; Feldextraktor trainieren), bevor Sie diesen Feldern vertrauen.</translation>
    </message>
    <message>
        <source>MarkupLM folder refused, the field extractor is unchanged: %1</source>
        <translation>MarkupLM-Ordner abgelehnt, der Feldextraktor bleibt unverändert: %1</translation>
    </message>
    <message>
        <source>%1: not a WebFormer or MarkupLM field extractor (config.json model_type is &quot;%2&quot;)</source>
        <translation>%1: kein WebFormer- oder MarkupLM-Feldextraktor (model_type in config.json ist „%2“)</translation>
    </message>
    <message>
        <source>Field extractor: the shipped model</source>
        <translation>Feldextraktor: das mitgelieferte Modell</translation>
    </message>
    <message>
        <source>Field extractor: MarkupLM %1</source>
        <translation>Feldextraktor: MarkupLM %1</translation>
    </message>
    <message>
        <source>Field extractor: %1</source>
        <translation>Feldextraktor: %1</translation>
    </message>
    <message>
        <source>Open a document first</source>
        <translation>Öffnen Sie zuerst ein Dokument</translation>
    </message>
    <message>
        <source>Field extraction is already running</source>
        <translation>Die Feldextraktion läuft bereits</translation>
    </message>
    <message>
        <source>The project&apos;s field extractor %1 is gone; using the shipped model</source>
        <translation>Der Feldextraktor %1 des Projekts ist nicht mehr da; das mitgelieferte Modell wird verwendet</translation>
    </message>
    <message>
        <source>Extracting fields…</source>
        <translation>Felder werden extrahiert…</translation>
    </message>
    <message>
        <source>Field extraction cancelled</source>
        <translation>Feldextraktion abgebrochen</translation>
    </message>
    <message>
        <source>Another document was opened while fields were extracted: the answers were not applied</source>
        <translation>Während der Feldextraktion wurde ein anderes Dokument geöffnet: Die Antworten wurden nicht übernommen</translation>
    </message>
    <message>
        <source>Extract fields (%1)</source>
        <translation>Felder extrahieren (%1)</translation>
    </message>
    <message>
        <source>%1 field answers from %2</source>
        <translation>%1 Feldantworten von %2</translation>
    </message>
    <message>
        <source>Accept %1</source>
        <translation>%1 annehmen</translation>
    </message>
    <message>
        <source>Reject %1</source>
        <translation>%1 ablehnen</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not among the page&apos;s words: select whole words of the value</source>
        <translation>„%1“ gehört nicht zu den Wörtern der Seite: Wählen Sie ganze Wörter des Werts aus</translation>
    </message>
    <message>
        <source>Correct %1</source>
        <translation>%1 korrigieren</translation>
    </message>
    <message>
        <source>Select the value of %1 on the page (or pick its DOM node) first</source>
        <translation>Wählen Sie zuerst den Wert von %1 auf der Seite aus (oder seinen DOM-Knoten)</translation>
    </message>
    <message>
        <source>%1: no value on this page</source>
        <translation>%1: kein Wert auf dieser Seite</translation>
    </message>
    <message>
        <source>Clear %1</source>
        <translation>%1 leeren</translation>
    </message>
    <message>
        <source>unknown format &quot;%1&quot;</source>
        <translation>unbekanntes Format „%1“</translation>
    </message>
    <message>
        <source>Choose a field extractor folder (WebFormer or Hugging Face MarkupLM)</source>
        <translation>Einen Feldextraktor-Ordner wählen (WebFormer oder Hugging Face MarkupLM)</translation>
    </message>
    <message>
        <source>Export fields</source>
        <translation>Felder exportieren</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>Export fields into</source>
        <translation>Felder exportieren nach</translation>
    </message>
    <message>
        <source>Exported %1 file(s) to %2</source>
        <translation>%1 Datei(en) nach %2 exportiert</translation>
    </message>
</context>
<context>
    <name>folio::FieldsPanel</name>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Conf.</source>
        <translation>Konf.</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Extract</source>
        <translation>Extrahieren</translation>
    </message>
    <message>
        <source>Model &gt; Extract Fields on this page</source>
        <translation>Modell &gt; Felder extrahieren auf dieser Seite</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>Annehmen</translation>
    </message>
    <message>
        <source>Accept the suggested answer</source>
        <translation>Die vorgeschlagene Antwort annehmen</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>Ablehnen</translation>
    </message>
    <message>
        <source>Reject the suggested answer</source>
        <translation>Die vorgeschlagene Antwort ablehnen</translation>
    </message>
    <message>
        <source>Use selection</source>
        <translation>Auswahl verwenden</translation>
    </message>
    <message>
        <source>The field&apos;s value is the text selected on the page, or the words of the picked DOM node</source>
        <translation>Der Wert des Felds ist der auf der Seite ausgewählte Text oder die Wörter des gewählten DOM-Knotens</translation>
    </message>
    <message>
        <source>No value</source>
        <translation>Kein Wert</translation>
    </message>
    <message>
        <source>This page has no value for the field (stored as an answer)</source>
        <translation>Diese Seite hat keinen Wert für das Feld (als Antwort gespeichert)</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Forget every answer of the field on this page</source>
        <translation>Jede Antwort des Felds auf dieser Seite vergessen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop the extraction</source>
        <translation>Die Extraktion anhalten</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>keine Antwort</translation>
    </message>
    <message>
        <source>(no value on this page)</source>
        <translation>(kein Wert auf dieser Seite)</translation>
    </message>
    <message>
        <source>suggested</source>
        <translation>vorgeschlagen</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>corrected</source>
        <translation>korrigiert</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>angenommen</translation>
    </message>
    <message>
        <source>%1
reads as %2: %3</source>
        <translation>%1
wird gelesen als %2: %3</translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation>%1
%2</translation>
    </message>
    <message>
        <source>Extracted fields</source>
        <translation>Extrahierte Felder</translation>
    </message>
</context>
<context>
    <name>folio::FieldsWorker</name>
    <message>
        <source>Extracting fields…</source>
        <translation>Felder werden extrahiert…</translation>
    </message>
    <message>
        <source>Epoch %1/%2, loss %3%4</source>
        <translation>Epoche %1/%2, Loss %3%4</translation>
    </message>
    <message>
        <source>, dev F1 %1</source>
        <translation>, Dev-F1 %1</translation>
    </message>
    <message>
        <source>field extractor training failed: %1</source>
        <translation>Training des Feldextraktors fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>folio::HeadGridPanel</name>
    <message>
        <source>the selected word on the page</source>
        <translation>das ausgewählte Wort auf der Seite</translation>
    </message>
    <message>
        <source>each head&apos;s whole matrix</source>
        <translation>die ganze Matrix jedes Kopfs</translation>
    </message>
    <message>
        <source>layer order</source>
        <translation>Schichtreihenfolge</translation>
    </message>
    <message>
        <source>mean 2-D distance on the page</source>
        <translation>mittlerer 2-D-Abstand auf der Seite</translation>
    </message>
    <message>
        <source>mean tree distance</source>
        <translation>mittlerer Baumabstand</translation>
    </message>
    <message>
        <source>entropy</source>
        <translation>Entropie</translation>
    </message>
    <message>
        <source>Bias rows</source>
        <translation>Bias-Zeilen</translation>
    </message>
    <message>
        <source>Show each bias term (1-D, 2-D, ...) as an extra row of thumbnails</source>
        <translation>Jeden Bias-Term (1-D, 2-D, ...) als zusätzliche Zeile von Miniaturen zeigen</translation>
    </message>
    <message>
        <source>Which window of a long document the grid shows</source>
        <translation>Welches Fenster eines langen Dokuments das Raster zeigt</translation>
    </message>
    <message>
        <source>A trace too large for memory is shown as a smaller window: its first tokens</source>
        <translation>Eine Spur, die zu groß für den Speicher ist, wird als kleineres Fenster gezeigt: ihre ersten Tokens</translation>
    </message>
    <message>
        <source>PNG…</source>
        <translation>PNG…</translation>
    </message>
    <message>
        <source>SVG…</source>
        <translation>SVG…</translation>
    </message>
    <message>
        <source>HTML…</source>
        <translation>HTML…</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Zeigen</translation>
    </message>
    <message>
        <source>Sort heads by</source>
        <translation>Köpfe sortieren nach</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Fenster</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>The trace holds %1 MiB of attention (%2 layers × %3 heads, %4 window(s) of up to %5 tokens), more than the grid&apos;s budget of %6 MiB: showing tokens 1–%7 of window %8. Choose a smaller window under Tokens (at most %9 fit).</source>
        <translation>Die Spur enthält %1 MiB Aufmerksamkeit (%2 Schichten × %3 Köpfe, %4 Fenster mit bis zu %5 Tokens), mehr als das Budget des Rasters von %6 MiB: Tokens 1–%7 von Fenster %8 werden gezeigt. Wählen Sie unter Tokens ein kleineres Fenster (höchstens %9 passen).</translation>
    </message>
    <message>
        <source>mean DOM-tree distance</source>
        <translation>mittlerer DOM-Baum-Abstand</translation>
    </message>
    <message>
        <source>mean section-tree distance</source>
        <translation>mittlerer Abschnittsbaum-Abstand</translation>
    </message>
    <message>
        <source>mean tree distance (no DOM or sections)</source>
        <translation>mittlerer Baumabstand (kein DOM und keine Abschnitte)</translation>
    </message>
    <message>
        <source>word %1 &apos;%2&apos;</source>
        <translation>Wort %1 „%2“</translation>
    </message>
    <message>
        <source>the whole matrix</source>
        <translation>die ganze Matrix</translation>
    </message>
    <message>
        <source>%1: %2 layers x %3 heads, %4, window %5</source>
        <translation>%1: %2 Schichten x %3 Köpfe, %4, Fenster %5</translation>
    </message>
    <message>
        <source>No attention trace: run Model &gt; Show Attention first.</source>
        <translation>Keine Aufmerksamkeitsspur: Führen Sie zuerst Modell &gt; Aufmerksamkeit anzeigen aus.</translation>
    </message>
    <message>
        <source>each head&apos;s whole matrix (click a word on the page to see its attention)</source>
        <translation>die ganze Matrix jedes Kopfs (klicken Sie ein Wort auf der Seite an, um seine Aufmerksamkeit zu sehen)</translation>
    </message>
    <message>
        <source>each head&apos;s whole matrix: the model saw no token of word %1 in this window</source>
        <translation>die ganze Matrix jedes Kopfs: Das Modell sah in diesem Fenster kein Token von Wort %1</translation>
    </message>
    <message>
        <source>word %1</source>
        <translation>Wort %1</translation>
    </message>
    <message>
        <source>%1 layers × %2 heads%3 of %4, window %5 of %6: %7 — computing…</source>
        <translation>%1 Schichten × %2 Köpfe%3 von %4, Fenster %5 von %6: %7 — wird berechnet…</translation>
    </message>
    <message>
        <source> + %1 bias rows</source>
        <translation> + %1 Bias-Zeilen</translation>
    </message>
    <message>
        <source> — computing…</source>
        <translation> — wird berechnet…</translation>
    </message>
    <message>
        <source>No attention trace to export: run Model &gt; Show Attention first.</source>
        <translation>Keine Aufmerksamkeitsspur zum Exportieren: Führen Sie zuerst Modell &gt; Aufmerksamkeit anzeigen aus.</translation>
    </message>
    <message>
        <source>Export Head Grid</source>
        <translation>Kopfraster exportieren</translation>
    </message>
    <message>
        <source>%1 files (*.%2)</source>
        <translation>%1-Dateien (*.%2)</translation>
    </message>
    <message>
        <source>Head grid written to %1</source>
        <translation>Kopfraster nach %1 geschrieben</translation>
    </message>
    <message>
        <source>Tokens shown</source>
        <translation>Angezeigte Tokens</translation>
    </message>
</context>
<context>
    <name>folio::HeatmapView</name>
    <message>
        <source>%1 → %2: not computed (different windows)</source>
        <translation>%1 → %2: nicht berechnet (verschiedene Fenster)</translation>
    </message>
    <message>
        <source>%1 → %2: %3</source>
        <translation>%1 → %2: %3</translation>
    </message>
</context>
<context>
    <name>folio::HfFineTuneWorker</name>
    <message>
        <source>%1 labelled pages: the regression guard holds out %2 and training needs at least one more (label %3 more)</source>
        <translation>%1 gelabelte Seiten: Der Regressionsschutz hält %2 zurück und das Training braucht mindestens eine weitere (labeln Sie %3 mehr)</translation>
    </message>
</context>
<context>
    <name>folio::HubDownloadDialog</name>
    <message>
        <source>Get Model from Hugging Face</source>
        <translation>Modell von Hugging Face holen</translation>
    </message>
    <message>
        <source>Repo id:</source>
        <translation>Repo-ID:</translation>
    </message>
    <message>
        <source>Revision (branch, tag or commit):</source>
        <translation>Revision (Branch, Tag oder Commit):</translation>
    </message>
    <message>
        <source>From %1 into the cache Python&apos;s huggingface_hub shares: %2.&lt;br&gt;Token: %3</source>
        <translation>Von %1 in den Cache, den Pythons huggingface_hub teilt: %2.&lt;br&gt;Token: %3</translation>
    </message>
    <message>
        <source>none (private and gated models need one: set HF_TOKEN, or run &lt;tt&gt;huggingface-cli login&lt;/tt&gt;, which writes %1)</source>
        <translation>keiner (private und zugangsbeschränkte Modelle brauchen einen: Setzen Sie HF_TOKEN oder führen Sie &lt;tt&gt;huggingface-cli login&lt;/tt&gt; aus, das %1 schreibt)</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>aus %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;HF_HUB_OFFLINE is set: only what is in the cache.</source>
        <translation>&lt;br&gt;HF_HUB_OFFLINE ist gesetzt: nur, was im Cache liegt.</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Herunterladen</translation>
    </message>
    <message>
        <source>Asking %1 for its files…</source>
        <translation>%1 wird nach seinen Dateien gefragt…</translation>
    </message>
    <message>
        <source>%1 (%2 of %3): %4 of %5 MB</source>
        <translation>%1 (%2 von %3): %4 von %5 MB</translation>
    </message>
    <message>
        <source>Downloaded: %1</source>
        <translation>Heruntergeladen: %1</translation>
    </message>
    <message>
        <source>
(Set HF_TOKEN before starting Folio, or run huggingface-cli login.)</source>
        <translation>
(Setzen Sie HF_TOKEN vor dem Start von Folio oder führen Sie huggingface-cli login aus.)</translation>
    </message>
    <message>
        <source>Cancelling… (the part already fetched stays in the cache for the next try)</source>
        <translation>Wird abgebrochen… (der bereits geholte Teil bleibt für den nächsten Versuch im Cache)</translation>
    </message>
</context>
<context>
    <name>folio::HubWorker</name>
    <message>
        <source>%1 was downloaded to %2, but Folio cannot run it: %3</source>
        <translation>%1 wurde nach %2 heruntergeladen, aber Folio kann es nicht ausführen: %3</translation>
    </message>
    <message>
        <source>no task</source>
        <translation>keine Aufgabe</translation>
    </message>
</context>
<context>
    <name>folio::ImagePatchCanvas</name>
    <message>
        <source>no page image</source>
        <translation>kein Seitenbild</translation>
    </message>
</context>
<context>
    <name>folio::ImagePatchPanel</name>
    <message>
        <source>Run Model &gt; Show Attention with a checkpoint that has an image branch (LayoutLMv3, LayoutLMv2), then click a word.</source>
        <translation>Führen Sie Modell &gt; Aufmerksamkeit anzeigen mit einem Checkpoint aus, der einen Bildzweig hat (LayoutLMv3, LayoutLMv2), und klicken Sie dann ein Wort an.</translation>
    </message>
    <message>
        <source>%1: %2 × %3 image patches%4 in window %5 of %6. Click a word for its attention to the image, a cell for the image&apos;s attention to the words.</source>
        <translation>%1: %2 × %3 Bildfelder%4 in Fenster %5 von %6. Klicken Sie ein Wort für seine Aufmerksamkeit auf das Bild an, eine Zelle für die Aufmerksamkeit des Bildes auf die Wörter.</translation>
    </message>
    <message>
        <source> after a visual [CLS]</source>
        <translation> nach einem visuellen [CLS]</translation>
    </message>
    <message>
        <source>No attention trace: run Model &gt; Show Attention first.</source>
        <translation>Keine Aufmerksamkeitsspur: Führen Sie zuerst Modell &gt; Aufmerksamkeit anzeigen aus.</translation>
    </message>
    <message>
        <source>Word %1: the model saw no token of it in a window with image tokens.</source>
        <translation>Wort %1: Das Modell sah kein Token davon in einem Fenster mit Bild-Tokens.</translation>
    </message>
    <message>
        <source>avg</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <source>Word %1 &apos;%2&apos; → image, layer %3, head %4: %5 of its attention on the %6 patches; most on row %7, column %8.</source>
        <translation>Wort %1 „%2“ → Bild, Schicht %3, Kopf %4: %5 seiner Aufmerksamkeit auf den %6 Feldern; am meisten auf Zeile %7, Spalte %8.</translation>
    </message>
    <message>
        <source>Image cell %1: the grid has %2 cells.</source>
        <translation>Bildzelle %1: Das Raster hat %2 Zellen.</translation>
    </message>
    <message>
        <source>Image cell row %1, column %2 → words, layer %3, head %4: %5 words attended%6.</source>
        <translation>Bildzelle Zeile %1, Spalte %2 → Wörter, Schicht %3, Kopf %4: %5 Wörter beachtet%6.</translation>
    </message>
    <message>
        <source>, most &apos;%1&apos; (%2)</source>
        <translation>, am meisten „%1“ (%2)</translation>
    </message>
    <message>
        <source>Image patch attention</source>
        <translation>Aufmerksamkeit der Bildausschnitte</translation>
    </message>
    <message>
        <source>The page image with the attention of the chosen patch over it</source>
        <translation>Das Seitenbild mit der Aufmerksamkeit des gewählten Ausschnitts darüber</translation>
    </message>
</context>
<context>
    <name>folio::LabellingLoop</name>
    <message>
        <source>Suggestions refreshed with the new model (%1 suggestions; Ctrl+Z undoes them)</source>
        <translation>Vorschläge mit dem neuen Modell aufgefrischt (%1 Vorschläge; Strg+Z macht sie rückgängig)</translation>
    </message>
    <message>
        <source>The new model could not suggest labels for this page: %1</source>
        <translation>Das neue Modell konnte für diese Seite keine Labels vorschlagen: %1</translation>
    </message>
    <message>
        <source>Retrain in the &amp;Background</source>
        <translation>Im Hinter&amp;grund neu trainieren</translation>
    </message>
    <message>
        <source>A project setting: while you label, the tagger retrains after every N pages you mark done, and takes over only when it scores better on the project&apos;s held-out pages</source>
        <translation>Eine Projekteinstellung: Während Sie labeln, trainiert der Tagger nach je N Seiten, die Sie als fertig markieren, neu und übernimmt nur, wenn er auf den zurückgehaltenen Seiten des Projekts besser abschneidet</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>Every %1 Accepted Pages (suggested)</source>
        <translation>Alle %1 angenommenen Seiten (empfohlen)</translation>
    </message>
    <message>
        <source>Every %1 Accepted Pages</source>
        <translation>Alle %1 angenommenen Seiten</translation>
    </message>
    <message>
        <source>Retrain &amp;Now</source>
        <translation>&amp;Jetzt neu trainieren</translation>
    </message>
    <message>
        <source>&amp;Cancel Background Retraining</source>
        <translation>Hintergrundtraining a&amp;bbrechen</translation>
    </message>
    <message>
        <source>The setting could not be stored: %1</source>
        <translation>Die Einstellung konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>Retraining in the background after every %1 accepted pages (Mark Done); %2 accepted so far</source>
        <translation>Neutraining im Hintergrund nach je %1 angenommenen Seiten (Als fertig markieren); bisher %2 angenommen</translation>
    </message>
    <message>
        <source>Background retraining is off</source>
        <translation>Das Neutraining im Hintergrund ist aus</translation>
    </message>
    <message>
        <source>Open a project first</source>
        <translation>Öffnen Sie zuerst ein Projekt</translation>
    </message>
    <message>
        <source>A background retraining is already running</source>
        <translation>Ein Neutraining im Hintergrund läuft bereits</translation>
    </message>
    <message>
        <source>Background retraining not started: %1</source>
        <translation>Neutraining im Hintergrund nicht gestartet: %1</translation>
    </message>
    <message>
        <source>Retraining in the background on %1 accepted pages…</source>
        <translation>Neutraining im Hintergrund auf %1 angenommenen Seiten…</translation>
    </message>
    <message>
        <source>Retraining in the background on %1 accepted pages (%2 held out to score it); keep labelling</source>
        <translation>Neutraining im Hintergrund auf %1 angenommenen Seiten (%2 zur Bewertung zurückgehalten); labeln Sie weiter</translation>
    </message>
    <message>
        <source>Cancelling the background retraining…</source>
        <translation>Das Neutraining im Hintergrund wird abgebrochen…</translation>
    </message>
    <message>
        <source>; the model learnt labels it had never seen: %1</source>
        <translation>; das Modell hat Labels gelernt, die es nie gesehen hatte: %1</translation>
    </message>
    <message>
        <source>Suggesting labels with the new model (this page&apos;s suggestions came from the previous one)…</source>
        <translation>Labels werden mit dem neuen Modell vorgeschlagen (die Vorschläge dieser Seite kamen vom vorherigen)…</translation>
    </message>
    <message numerus="yes">
        <source>; new suggestions on %n page(s) not yet accepted</source>
        <translation>
            <numerusform>; neue Vorschläge auf %n noch nicht angenommenen Seite</numerusform>
            <numerusform>; neue Vorschläge auf %n noch nicht angenommenen Seiten</numerusform>
        </translation>
    </message>
    <message>
        <source> (the background run opens a connection of its own, without a password given in the URL: keep it in PGPASSWORD, ~/.pgpass or a .folio-pg connection file)</source>
        <translation> (das Nachtrainieren im Hintergrund öffnet eine eigene Verbindung, ohne ein in der URL angegebenes Passwort: legen Sie es in PGPASSWORD, ~/.pgpass oder eine .folio-pg-Verbindungsdatei)</translation>
    </message>
    <message>
        <source>Reading the accepted pages for a background retraining…</source>
        <translation>Angenommene Seiten für ein Nachtrainieren im Hintergrund werden gelesen…</translation>
    </message>
    <message>
        <source>Background retraining starts from Folio&apos;s own tagger or a LayoutLMv3 / LiLT / LayoutLMv2 token classifier; the current model (%1, %2) is neither: use Model &gt; Train on Project, or choose another model</source>
        <translation>Das Neutraining im Hintergrund startet von Folios eigenem Tagger oder einem LayoutLMv3- / LiLT- / LayoutLMv2-Token-Classifier; das aktuelle Modell (%1, %2) ist keins davon: Verwenden Sie Modell &gt; Auf Projekt trainieren oder wählen Sie ein anderes Modell</translation>
    </message>
    <message>
        <source>no model type</source>
        <translation>kein Modelltyp</translation>
    </message>
</context>
<context>
    <name>folio::LanguageMenu</name>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Einstellungen</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>&amp;System Language</source>
        <translation>&amp;Systemsprache</translation>
    </message>
    <message>
        <source>The interface language changes when Folio next starts.</source>
        <translation>Die Sprache der Oberfläche ändert sich beim nächsten Start von Folio.</translation>
    </message>
    <message>
        <source>The interface language; a change applies when Folio next starts</source>
        <translation>Die Sprache der Oberfläche; eine Änderung gilt ab dem nächsten Start von Folio</translation>
    </message>
</context>
<context>
    <name>folio::MainWindow</name>
    <message>
        <source>Folio</source>
        <translation>Folio</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Folio&lt;/h2&gt;&lt;p&gt;Open a web page, a scanned form or a PDF to see its structure, run a model on it and correct what it finds.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Folio&lt;/h2&gt;&lt;p&gt;Öffnen Sie eine Webseite, ein gescanntes Formular oder ein PDF, um seine Struktur zu sehen, lassen Sie ein Modell darauf laufen und korrigieren Sie, was es findet.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Open a document…</source>
        <translation>Dokument öffnen…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet…</translation>
    </message>
    <message>
        <source>Saved (revision %1)</source>
        <translation>Gespeichert (Revision %1)</translation>
    </message>
    <message>
        <source>%1 suggestions from the model</source>
        <translation>%1 Vorschläge vom Modell</translation>
    </message>
    <message>
        <source>%1 suggestions and %2 links from the model</source>
        <translation>%1 Vorschläge und %2 Verknüpfungen vom Modell</translation>
    </message>
    <message>
        <source> (int8)</source>
        <translation> (int8)</translation>
    </message>
    <message>
        <source>The model could not be loaded</source>
        <translation>Das Modell konnte nicht geladen werden</translation>
    </message>
    <message>
        <source>
The previous model stays selected: %1</source>
        <translation>
Das vorherige Modell bleibt ausgewählt: %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keines</translation>
    </message>
    <message>
        <source>The model could not run</source>
        <translation>Das Modell konnte nicht ausgeführt werden</translation>
    </message>
    <message>
        <source>Running OCR on the region…</source>
        <translation>OCR läuft auf dem Bereich…</translation>
    </message>
    <message>
        <source>Re-OCR: %1 words added (Ctrl+Z undoes it)</source>
        <translation>Erneute OCR: %1 Wörter hinzugefügt (Strg+Z macht es rückgängig)</translation>
    </message>
    <message>
        <source>Re-OCR</source>
        <translation>Erneute OCR</translation>
    </message>
    <message>
        <source>Attention: %1</source>
        <translation>Aufmerksamkeit: %1</translation>
    </message>
    <message>
        <source>Show Attention failed: %1</source>
        <translation>Aufmerksamkeit anzeigen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Dokumente</translation>
    </message>
    <message>
        <source>Structure</source>
        <translation>Struktur</translation>
    </message>
    <message>
        <source>Tree</source>
        <translation>Baum</translation>
    </message>
    <message>
        <source>Sections</source>
        <translation>Abschnitte</translation>
    </message>
    <message>
        <source>Annotations</source>
        <translation>Annotationen</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>Aufmerksamkeit</translation>
    </message>
    <message>
        <source>Fields</source>
        <translation>Felder</translation>
    </message>
    <message>
        <source>Layout reset: the docks are back where they start; the Attention dock opens with Model &gt; Show Attention</source>
        <translation>Layout zurückgesetzt: Die Docks sind wieder an ihrem Startplatz; das Aufmerksamkeits-Dock öffnet sich mit Modell &gt; Aufmerksamkeit anzeigen</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open Document…</source>
        <translation>&amp;Dokument öffnen…</translation>
    </message>
    <message>
        <source>Open Saved Web Page &amp;Folder…</source>
        <translation>Gespeicherten Webseiten-&amp;Ordner öffnen…</translation>
    </message>
    <message>
        <source>Folder of a saved web page (X.html with X_files)</source>
        <translation>Ordner einer gespeicherten Webseite (X.html mit X_files)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;New Project…</source>
        <translation>&amp;Neues Projekt…</translation>
    </message>
    <message>
        <source>Open &amp;Project…</source>
        <translation>&amp;Projekt öffnen…</translation>
    </message>
    <message>
        <source>&amp;Import Dataset…</source>
        <translation>Datensatz &amp;importieren…</translation>
    </message>
    <message>
        <source>&amp;Export Dataset…</source>
        <translation>Datensatz &amp;exportieren…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>&amp;Modell</translation>
    </message>
    <message>
        <source>&amp;Choose Model…</source>
        <translation>Modell &amp;wählen…</translation>
    </message>
    <message>
        <source>Get Model from &amp;Hugging Face…</source>
        <translation>Modell von &amp;Hugging Face holen…</translation>
    </message>
    <message>
        <source>&amp;Suggest Labels</source>
        <translation>Labels &amp;vorschlagen</translation>
    </message>
    <message>
        <source>Show &amp;Attention</source>
        <translation>&amp;Aufmerksamkeit anzeigen</translation>
    </message>
    <message>
        <source>&amp;Int8 Inference (Faster, Approximate)</source>
        <translation>&amp;Int8-Inferenz (schneller, angenähert)</translation>
    </message>
    <message>
        <source>Suggest Labels, Extract Fields and seq2seq question summaries with the model&apos;s Linear layers in int8: about a third of the time for base-size models, little gain for small ones; FUNSD F1 moved by 0.11 points at most, Zyte F1 and QMSum ROUGE not at all (BENCHMARKS.md)</source>
        <translation>Labels vorschlagen, Felder extrahieren und seq2seq-Fragenzusammenfassungen mit den Linear-Schichten des Modells in int8: etwa ein Drittel der Zeit bei Modellen in Basisgröße, wenig Gewinn bei kleinen; FUNSD-F1 verschob sich um höchstens 0,11 Punkte, Zyte-F1 und QMSum-ROUGE gar nicht (BENCHMARKS.md)</translation>
    </message>
    <message>
        <source>The models run in int8 (Suggest Labels, Extract Fields, seq2seq question summaries)</source>
        <translation>Die Modelle laufen in int8 (Labels vorschlagen, Felder extrahieren, seq2seq-Fragenzusammenfassungen)</translation>
    </message>
    <message>
        <source>The models run in float32</source>
        <translation>Die Modelle laufen in float32</translation>
    </message>
    <message>
        <source>&amp;Train on Project…</source>
        <translation>Auf Projekt &amp;trainieren…</translation>
    </message>
    <message>
        <source>Open a project first</source>
        <translation>Öffnen Sie zuerst ein Projekt</translation>
    </message>
    <message>
        <source>Training finished: %1 is the model now; Suggest Labels (Ctrl+R) uses it</source>
        <translation>Training beendet: %1 ist jetzt das Modell; Labels vorschlagen (Strg+R) verwendet es</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>Layout &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>Open &amp;Sample Project</source>
        <translation>&amp;Beispielprojekt öffnen</translation>
    </message>
    <message>
        <source>&amp;About Folio</source>
        <translation>&amp;Über Folio</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>Project %1: %2 documents</source>
        <translation>Projekt %1: %2 Dokumente</translation>
    </message>
    <message>
        <source> (read-only)</source>
        <translation> (schreibgeschützt)</translation>
    </message>
    <message>
        <source>New project</source>
        <translation>Neues Projekt</translation>
    </message>
    <message>
        <source>Folio projects (*.folio)</source>
        <translation>Folio-Projekte (*.folio)</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>Projekt öffnen</translation>
    </message>
    <message>
        <source>Folio projects (*.folio *.folio-pg)</source>
        <translation>Folio-Projekte (*.folio *.folio-pg)</translation>
    </message>
    <message>
        <source>Open document</source>
        <translation>Dokument öffnen</translation>
    </message>
    <message>
        <source>Cannot prepare the sample project</source>
        <translation>Das Beispielprojekt kann nicht vorbereitet werden</translation>
    </message>
    <message>
        <source>Sample project: a scanned form, a PDF manual and a product page in %1</source>
        <translation>Beispielprojekt: ein gescanntes Formular, ein PDF-Handbuch und eine Produktseite in %1</translation>
    </message>
    <message>
        <source>Opened %1: %2 words on %3 pages</source>
        <translation>%1 geöffnet: %2 Wörter auf %3 Seiten</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>%1 kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>%1 — Folio</source>
        <translation>%1 — Folio</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>Modell: %1</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>%1 wird geladen…</translation>
    </message>
    <message>
        <source>Open a document first</source>
        <translation>Öffnen Sie zuerst ein Dokument</translation>
    </message>
    <message>
        <source>No model</source>
        <translation>Kein Modell</translation>
    </message>
    <message>
        <source>Choose a model checkpoint folder first (Model &gt; Choose Model).</source>
        <translation>Wählen Sie zuerst einen Modell-Checkpoint-Ordner (Modell &gt; Modell wählen).</translation>
    </message>
    <message>
        <source>Running %1…</source>
        <translation>%1 läuft…</translation>
    </message>
    <message>
        <source>Open a document and choose a model first</source>
        <translation>Öffnen Sie zuerst ein Dokument und wählen Sie ein Modell</translation>
    </message>
</context>
<context>
    <name>folio::MergeDialog</name>
    <message>
        <source>Merge your changes</source>
        <translation>Ihre Änderungen zusammenführen</translation>
    </message>
    <message>
        <source>Someone</source>
        <translation>Jemand</translation>
    </message>
    <message>
        <source>%1 saved this document at %2 (revision %3) after you opened it (revision %4). Nothing of yours was written and nothing of theirs was overwritten. Choose, item by item, which version to keep; the merge is saved on top of theirs.</source>
        <translation>%1 hat dieses Dokument um %2 gespeichert (Revision %3), nachdem Sie es geöffnet haben (Revision %4). Nichts von Ihnen wurde geschrieben und nichts von den anderen überschrieben. Wählen Sie Punkt für Punkt, welche Version bleibt; die Zusammenführung wird über deren Version gespeichert.</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Punkt</translation>
    </message>
    <message>
        <source>Theirs (%1)</source>
        <translation>Deren (%1)</translation>
    </message>
    <message>
        <source>Mine</source>
        <translation>Meine</translation>
    </message>
    <message>
        <source>Keep mine</source>
        <translation>Meine behalten</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>All mine</source>
        <translation>Alle meine</translation>
    </message>
    <message>
        <source>All theirs</source>
        <translation>Alle deren</translation>
    </message>
    <message>
        <source>Save merge</source>
        <translation>Zusammenführung speichern</translation>
    </message>
    <message>
        <source>Drop mine, reload theirs</source>
        <translation>Meine verwerfen, deren neu laden</translation>
    </message>
</context>
<context>
    <name>folio::ModelChooserDialog</name>
    <message>
        <source>Choose Model</source>
        <translation>Modell wählen</translation>
    </message>
    <message>
        <source>The entity taggers Folio ships, and those in the Hugging Face cache. Suggest Labels runs the one you choose; Other Folder… takes your own checkpoint, From Hugging Face… downloads one.</source>
        <translation>Die Entitäten-Tagger, die Folio mitliefert, und die im Hugging-Face-Cache. Labels vorschlagen führt den gewählten aus; Anderer Ordner… nimmt Ihren eigenen Checkpoint, Von Hugging Face… lädt einen herunter.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>What it does</source>
        <translation>Was es tut</translation>
    </message>
    <message>
        <source>Trained on</source>
        <translation>Trainiert auf</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Verwendung</translation>
    </message>
    <message>
        <source>non-commercial only</source>
        <translation>nur nicht-kommerziell</translation>
    </message>
    <message>
        <source>see licence</source>
        <translation>siehe Lizenz</translation>
    </message>
    <message>
        <source>%1 (not installed)</source>
        <translation>%1 (nicht installiert)</translation>
    </message>
    <message>
        <source>Hugging Face cache</source>
        <translation>Hugging-Face-Cache</translation>
    </message>
    <message>
        <source>see its model card</source>
        <translation>siehe seine Model Card</translation>
    </message>
    <message>
        <source>the licence its model card (README.md in %1) states</source>
        <translation>die Lizenz, die seine Model Card (README.md in %1) nennt</translation>
    </message>
    <message>
        <source>No model chosen yet.</source>
        <translation>Noch kein Modell gewählt.</translation>
    </message>
    <message>
        <source>Current model: %1</source>
        <translation>Aktuelles Modell: %1</translation>
    </message>
    <message>
        <source>Other Folder…</source>
        <translation>Anderer Ordner…</translation>
    </message>
    <message>
        <source>From Hugging Face…</source>
        <translation>Von Hugging Face…</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2&lt;br&gt;Trained on: %3&lt;br&gt;&lt;b&gt;Licence:&lt;/b&gt; %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2&lt;br&gt;Trainiert auf: %3&lt;br&gt;&lt;b&gt;Lizenz:&lt;/b&gt; %4</translation>
    </message>
    <message>
        <source>Choose a model checkpoint folder</source>
        <translation>Einen Modell-Checkpoint-Ordner wählen</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelle</translation>
    </message>
</context>
<context>
    <name>folio::ModelHistory</name>
    <message>
        <source>Go &amp;Back to Previous Model</source>
        <translation>&amp;Zurück zum vorherigen Modell</translation>
    </message>
    <message>
        <source>No model was replaced yet</source>
        <translation>Es wurde noch kein Modell ersetzt</translation>
    </message>
    <message>
        <source>Use %1 again (the model before the last one you accepted)</source>
        <translation>%1 wieder verwenden (das Modell vor dem zuletzt angenommenen)</translation>
    </message>
</context>
<context>
    <name>folio::OcrLanguageMenu</name>
    <message>
        <source>OCR &amp;Language</source>
        <translation>OCR-&amp;Sprache</translation>
    </message>
    <message>
        <source>Automatic (English; German pages read again in German)</source>
        <translation>Automatisch (Englisch; deutsche Seiten werden erneut auf Deutsch gelesen)</translation>
    </message>
    <message>
        <source>English + German (mixed pages, slower)</source>
        <translation>Englisch + Deutsch (gemischte Seiten, langsamer)</translation>
    </message>
    <message>
        <source>(no Tesseract language installed)</source>
        <translation>(keine Tesseract-Sprache installiert)</translation>
    </message>
</context>
<context>
    <name>folio::PageCanvas</name>
    <message>
        <source>
confidence %1</source>
        <translation>
Konfidenz %1</translation>
    </message>
    <message>
        <source>No label</source>
        <translation>Kein Label</translation>
    </message>
    <message>
        <source>Label: %1</source>
        <translation>Label: %1</translation>
    </message>
</context>
<context>
    <name>folio::ProjectService</name>
    <message>
        <source>Cannot open project</source>
        <translation>Projekt kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>no project path given</source>
        <translation>kein Projektpfad angegeben</translation>
    </message>
    <message>
        <source>Cannot create project</source>
        <translation>Projekt kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>: cannot replace the existing file</source>
        <translation>: die vorhandene Datei kann nicht ersetzt werden</translation>
    </message>
    <message>
        <source>Cannot add %1</source>
        <translation>%1 kann nicht hinzugefügt werden</translation>
    </message>
    <message>
        <source>Re-OCR</source>
        <translation>Erneute OCR</translation>
    </message>
    <message>
        <source>%1: another document is shown now; the re-OCR result was not applied</source>
        <translation>%1: Inzwischen wird ein anderes Dokument angezeigt; das Ergebnis der erneuten OCR wurde nicht übernommen</translation>
    </message>
    <message numerus="yes">
        <source>Re-OCR region (%n word(s) added)</source>
        <translation>
            <numerusform>Bereich erneut erkennen (%n Wort hinzugefügt)</numerusform>
            <numerusform>Bereich erneut erkennen (%n Wörter hinzugefügt)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>folio::QsController</name>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Questions drafted so far</source>
        <translation>Bisher entworfene Fragen</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>Fragen</translation>
    </message>
    <message>
        <source>%1 drafted — %p%</source>
        <translation>%1 entworfen — %p%</translation>
    </message>
    <message>
        <source>Generation failed: %1</source>
        <translation>Erzeugung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Generation cancelled; the hierarchy is unchanged.</source>
        <translation>Erzeugung abgebrochen; die Hierarchie ist unverändert.</translation>
    </message>
    <message>
        <source>Generate &amp;Question-Summary Hierarchy</source>
        <translation>Fragen-Zusammenfassungs-Hie&amp;rarchie erzeugen</translation>
    </message>
    <message>
        <source>Ctrl+Shift+G</source>
        <translation>Ctrl+Shift+G</translation>
    </message>
    <message>
        <source>Choose QS Model…</source>
        <translation>QS-Modell wählen…</translation>
    </message>
    <message>
        <source>Templates</source>
        <translation>Vorlagen</translation>
    </message>
    <message>
        <source>Question forms mined from QMSum&apos;s queries, filled with the section&apos;s topic (the default)</source>
        <translation>Frageformen aus den Anfragen von QMSum, gefüllt mit dem Thema des Abschnitts (Standard)</translation>
    </message>
    <message>
        <source>Neural question writer (qs-questions)</source>
        <translation>Neuronaler Fragenschreiber (qs-questions)</translation>
    </message>
    <message>
        <source>A small question generator writes each question from the item&apos;s summary and evidence; templates where it gives nothing new</source>
        <translation>Ein kleiner Fragengenerator schreibt jede Frage aus der Zusammenfassung und den Belegen des Punkts; Vorlagen, wo er nichts Neues liefert</translation>
    </message>
    <message>
        <source>Choose a question-summary checkpoint</source>
        <translation>Einen Fragen-Zusammenfassungs-Checkpoint wählen</translation>
    </message>
    <message>
        <source>Open a document first.</source>
        <translation>Öffnen Sie zuerst ein Dokument.</translation>
    </message>
    <message>
        <source>A generation is already running.</source>
        <translation>Eine Erzeugung läuft bereits.</translation>
    </message>
    <message>
        <source>The neural question writer (resources/models/qs-questions) is not installed: choose Model &gt; Questions &gt; Templates.</source>
        <translation>Der neuronale Fragenschreiber (resources/models/qs-questions) ist nicht installiert: Wählen Sie Modell &gt; Fragen &gt; Vorlagen.</translation>
    </message>
    <message>
        <source>Generating a question-summary hierarchy…</source>
        <translation>Eine Fragen-Zusammenfassungs-Hierarchie wird erzeugt…</translation>
    </message>
    <message>
        <source>Generating below the item…</source>
        <translation>Unterhalb des Punkts wird erzeugt…</translation>
    </message>
    <message>
        <source>Regenerate below question</source>
        <translation>Unterhalb der Frage neu erzeugen</translation>
    </message>
    <message>
        <source>Generate questions</source>
        <translation>Fragen erzeugen</translation>
    </message>
    <message numerus="yes">
        <source>%n suggestion(s) added; accept with A, reject with R.</source>
        <translation>
            <numerusform>%n Vorschlag hinzugefügt; annehmen mit A, ablehnen mit R.</numerusform>
            <numerusform>%n Vorschläge hinzugefügt; annehmen mit A, ablehnen mit R.</numerusform>
        </translation>
    </message>
    <message>
        <source>The model suggested nothing new.</source>
        <translation>Das Modell schlug nichts Neues vor.</translation>
    </message>
    <message>
        <source> (%1 in int8)</source>
        <translation> (%1 in int8)</translation>
    </message>
    <message>
        <source>Generated questions</source>
        <translation>Erzeugte Fragen</translation>
    </message>
</context>
<context>
    <name>folio::QsPanel</name>
    <message>
        <source>Summary of the whole document</source>
        <translation>Zusammenfassung des ganzen Dokuments</translation>
    </message>
    <message>
        <source>The current question, its summary and evidence appear here in full.</source>
        <translation>Die aktuelle Frage, ihre Zusammenfassung und Belege erscheinen hier vollständig.</translation>
    </message>
    <message>
        <source>Sibling</source>
        <translation>Nebenfrage</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>Insert</translation>
    </message>
    <message>
        <source>Child</source>
        <translation>Unterfrage</translation>
    </message>
    <message>
        <source>Shift+Insert</source>
        <translation>Shift+Insert</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Promote</source>
        <translation>Höher stufen</translation>
    </message>
    <message>
        <source>Shift+Tab</source>
        <translation>Shift+Tab</translation>
    </message>
    <message>
        <source>Demote</source>
        <translation>Tiefer stufen</translation>
    </message>
    <message>
        <source>Tab</source>
        <translation>Tab</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>Annehmen</translation>
    </message>
    <message>
        <source>A; Shift+A: all</source>
        <translation>A; Umschalt+A: alle</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>Ablehnen</translation>
    </message>
    <message>
        <source>R</source>
        <translation>R</translation>
    </message>
    <message>
        <source>Attach evidence</source>
        <translation>Beleg anhängen</translation>
    </message>
    <message>
        <source>E: selected words or section; Shift+E clears</source>
        <translation>E: ausgewählte Wörter oder Abschnitt; Umschalt+E entfernt</translation>
    </message>
    <message>
        <source>Regenerate below</source>
        <translation>Darunter neu erzeugen</translation>
    </message>
    <message>
        <source>G</source>
        <translation>G</translation>
    </message>
    <message>
        <source>&lt;i&gt;no summary&lt;/i&gt;</source>
        <translation>&lt;i&gt;keine Zusammenfassung&lt;/i&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Evidence: %n passage(s)</source>
        <translation>
            <numerusform>Belege: %n Passage</numerusform>
            <numerusform>Belege: %n Passagen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n section(s)</source>
        <translation>
            <numerusform>, %n Abschnitt</numerusform>
            <numerusform>, %n Abschnitte</numerusform>
        </translation>
    </message>
    <message>
        <source> (highlighted on the page)</source>
        <translation> (auf der Seite hervorgehoben)</translation>
    </message>
    <message>
        <source>No evidence attached (select words or a section and press E).</source>
        <translation>Kein Beleg angehängt (Wörter oder einen Abschnitt auswählen und E drücken).</translation>
    </message>
    <message>
        <source>Suggested by %1, confidence %2</source>
        <translation>Vorgeschlagen von %1, Konfidenz %2</translation>
    </message>
    <message>
        <source>Add question</source>
        <translation>Frage hinzufügen</translation>
    </message>
    <message>
        <source>No question added: the hierarchy is at its size limit or no document is open.</source>
        <translation>Keine Frage hinzugefügt: Die Hierarchie hat ihre Größengrenze erreicht oder es ist kein Dokument offen.</translation>
    </message>
    <message>
        <source>Add follow-up question</source>
        <translation>Folgefrage hinzufügen</translation>
    </message>
    <message>
        <source>No follow-up added: the hierarchy is at its depth limit (%1 levels) or no item is current.</source>
        <translation>Keine Folgefrage hinzugefügt: Die Hierarchie hat ihre Tiefengrenze (%1 Ebenen) erreicht oder es gibt keinen aktuellen Punkt.</translation>
    </message>
    <message>
        <source>Delete question</source>
        <translation>Frage löschen</translation>
    </message>
    <message>
        <source>Promote question</source>
        <translation>Frage höher stufen</translation>
    </message>
    <message>
        <source>Demote question</source>
        <translation>Frage tiefer stufen</translation>
    </message>
    <message>
        <source>Move question up</source>
        <translation>Frage nach oben verschieben</translation>
    </message>
    <message>
        <source>Move question down</source>
        <translation>Frage nach unten verschieben</translation>
    </message>
    <message>
        <source>Accept question</source>
        <translation>Frage annehmen</translation>
    </message>
    <message>
        <source>Reject question</source>
        <translation>Frage ablehnen</translation>
    </message>
    <message>
        <source>Clear evidence</source>
        <translation>Belege entfernen</translation>
    </message>
    <message>
        <source>Accept all questions</source>
        <translation>Alle Fragen annehmen</translation>
    </message>
    <message>
        <source>Attach section as evidence</source>
        <translation>Abschnitt als Beleg anhängen</translation>
    </message>
    <message>
        <source>Attach words as evidence</source>
        <translation>Wörter als Beleg anhängen</translation>
    </message>
    <message>
        <source>Select words on the page or a section first, then press E.</source>
        <translation>Wählen Sie zuerst Wörter auf der Seite oder einen Abschnitt aus und drücken Sie dann E.</translation>
    </message>
    <message>
        <source>Nothing new to attach: the selection is already evidence of this item.</source>
        <translation>Nichts Neues anzuhängen: Die Auswahl ist bereits Beleg dieses Punkts.</translation>
    </message>
    <message>
        <source>Edit question</source>
        <translation>Frage bearbeiten</translation>
    </message>
    <message>
        <source>Not stored: the text is longer than the limit of %1 characters.</source>
        <translation>Nicht gespeichert: Der Text ist länger als die Grenze von %1 Zeichen.</translation>
    </message>
    <message>
        <source>Edit document summary</source>
        <translation>Dokumentzusammenfassung bearbeiten</translation>
    </message>
    <message>
        <source>Move question</source>
        <translation>Frage verschieben</translation>
    </message>
    <message>
        <source>Questions and summaries</source>
        <translation>Fragen und Zusammenfassungen</translation>
    </message>
    <message>
        <source>Question details</source>
        <translation>Details zur Frage</translation>
    </message>
</context>
<context>
    <name>folio::QsTreeModel</name>
    <message>
        <source>(no question)</source>
        <translation>(keine Frage)</translation>
    </message>
    <message>
        <source>Some evidence of this item no longer exists (the page was re-read or its sections changed).</source>
        <translation>Einige Belege dieses Punkts gibt es nicht mehr (die Seite wurde neu gelesen oder ihre Abschnitte haben sich geändert).</translation>
    </message>
    <message>
        <source>Attached text: “%1”</source>
        <translation>Angehängter Text: „%1“</translation>
    </message>
    <message numerus="yes">
        <source>Evidence: %n text span(s)</source>
        <translation>
            <numerusform>Belege: %n Textstelle</numerusform>
            <numerusform>Belege: %n Textstellen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n section(s)</source>
        <translation>
            <numerusform>%n Abschnitt</numerusform>
            <numerusform>%n Abschnitte</numerusform>
        </translation>
    </message>
    <message>
        <source>From model %1</source>
        <translation>Vom Modell %1</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Zusammenfassung</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
</context>
<context>
    <name>folio::SampleProject</name>
    <message>
        <source>the bundled samples are not installed (share/folio/samples and share/doc/folio/README.md)</source>
        <translation>die mitgelieferten Beispiele sind nicht installiert (share/folio/samples und share/doc/folio/README.md)</translation>
    </message>
</context>
<context>
    <name>folio::ScanPanel</name>
    <message>
        <source>Page</source>
        <translation>Seite</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Re-OCR region</source>
        <translation>Bereich erneut erkennen</translation>
    </message>
    <message>
        <source>Draw a rectangle on the page to OCR it again (text you corrected is kept)</source>
        <translation>Ein Rechteck auf die Seite ziehen, um es erneut zu erkennen (korrigierter Text bleibt erhalten)</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>Verknüpfen</translation>
    </message>
    <message>
        <source>Drag from a key (question) to its value (answer) to link the two entities</source>
        <translation>Von einem Schlüssel (Frage) zu seinem Wert (Antwort) ziehen, um die zwei Entitäten zu verknüpfen</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>Labels</translation>
    </message>
    <message>
        <source>Show the entity labels on the page (a label without room, or any when zoomed out, is a colour bar: hover it for the text)</source>
        <translation>Die Entitätenlabels auf der Seite anzeigen (ein Label ohne Platz, oder jedes beim Herauszoomen, ist ein Farbbalken: mit der Maus darüber für den Text)</translation>
    </message>
    <message>
        <source>A link joins two labelled entities: label both ends first</source>
        <translation>Eine Verknüpfung verbindet zwei gelabelte Entitäten: Labeln Sie zuerst beide Enden</translation>
    </message>
    <message>
        <source>of %1</source>
        <translation>von %1</translation>
    </message>
    <message>
        <source>The scanned page with its word boxes and entity labels; click or drag to select words</source>
        <translation>Die gescannte Seite mit ihren Wortrahmen und Entitätslabels; klicken oder ziehen, um Wörter auszuwählen</translation>
    </message>
    <message>
        <source>Page number</source>
        <translation>Seitenzahl</translation>
    </message>
</context>
<context>
    <name>folio::SectionsPanel</name>
    <message>
        <source>This document has no sections.</source>
        <translation>Dieses Dokument hat keine Abschnitte.</translation>
    </message>
    <message>
        <source>Section</source>
        <translation>Abschnitt</translation>
    </message>
    <message>
        <source>Words</source>
        <translation>Wörter</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>Teilen</translation>
    </message>
    <message>
        <source>Start a new section at the selected word</source>
        <translation>Einen neuen Abschnitt beim ausgewählten Wort beginnen</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>Zusammenführen</translation>
    </message>
    <message>
        <source>Merge the section into the one before it</source>
        <translation>Den Abschnitt mit dem vorherigen zusammenführen</translation>
    </message>
    <message>
        <source>Promote</source>
        <translation>Höher stufen</translation>
    </message>
    <message>
        <source>Move the section one level up</source>
        <translation>Den Abschnitt eine Ebene höher verschieben</translation>
    </message>
    <message>
        <source>Demote</source>
        <translation>Tiefer stufen</translation>
    </message>
    <message>
        <source>Move the section one level down</source>
        <translation>Den Abschnitt eine Ebene tiefer verschieben</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Umbenennen</translation>
    </message>
    <message>
        <source>Rename the section</source>
        <translation>Den Abschnitt umbenennen</translation>
    </message>
    <message>
        <source>(untitled, level %1)</source>
        <translation>(ohne Titel, Ebene %1)</translation>
    </message>
    <message>
        <source>Split section</source>
        <translation>Abschnitt teilen</translation>
    </message>
    <message>
        <source>Merge sections</source>
        <translation>Abschnitte zusammenführen</translation>
    </message>
    <message>
        <source>Promote section</source>
        <translation>Abschnitt höher stufen</translation>
    </message>
    <message>
        <source>Demote section</source>
        <translation>Abschnitt tiefer stufen</translation>
    </message>
    <message>
        <source>Rename section</source>
        <translation>Abschnitt umbenennen</translation>
    </message>
</context>
<context>
    <name>folio::SessionRecovery</name>
    <message>
        <source>the project %1 could not be reopened</source>
        <translation>das Projekt %1 konnte nicht wieder geöffnet werden</translation>
    </message>
    <message>
        <source>project %1</source>
        <translation>Projekt %1</translation>
    </message>
    <message>
        <source>document %1</source>
        <translation>Dokument %1</translation>
    </message>
    <message>
        <source>, page %1</source>
        <translation>, Seite %1</translation>
    </message>
    <message>
        <source>document %1 is no longer in the project</source>
        <translation>Dokument %1 ist nicht mehr im Projekt</translation>
    </message>
    <message>
        <source>the window layout</source>
        <translation>das Fensterlayout</translation>
    </message>
    <message>
        <source>Folio was not closed properly last time. Recovered: %1.</source>
        <translation>Folio wurde letztes Mal nicht ordnungsgemäß beendet. Wiederhergestellt: %1.</translation>
    </message>
    <message numerus="yes">
        <source>All %n edit(s) saved in that session are in the project</source>
        <translation>
            <numerusform>Die %n in dieser Sitzung gespeicherte Änderung ist im Projekt</numerusform>
            <numerusform>Alle %n in dieser Sitzung gespeicherten Änderungen sind im Projekt</numerusform>
        </translation>
    </message>
    <message>
        <source> (the last: %1)</source>
        <translation> (die letzte: %1)</translation>
    </message>
    <message>
        <source>A training run into %1 was interrupted after epoch %2 of %3: Resume Training continues it.</source>
        <translation>Ein Trainingslauf nach %1 wurde nach Epoche %2 von %3 unterbrochen: Training fortsetzen setzt ihn fort.</translation>
    </message>
    <message>
        <source>A training run into %1 was interrupted before its first epoch was saved: Resume Training starts it again.</source>
        <translation>Ein Trainingslauf nach %1 wurde unterbrochen, bevor seine erste Epoche gespeichert war: Training fortsetzen startet ihn neu.</translation>
    </message>
    <message>
        <source>A fine-tune of %1 into %2 was interrupted at step %3 of %4: Resume Training continues it.</source>
        <translation>Ein Fine-Tuning von %1 nach %2 wurde bei Schritt %3 von %4 unterbrochen: Training fortsetzen setzt es fort.</translation>
    </message>
    <message>
        <source>A fine-tune of %1 into %2 was interrupted before its first epoch was saved: Resume Training starts it again.</source>
        <translation>Ein Fine-Tuning von %1 nach %2 wurde unterbrochen, bevor seine erste Epoche gespeichert war: Training fortsetzen beginnt es neu.</translation>
    </message>
    <message>
        <source>Recovered session</source>
        <translation>Wiederhergestellte Sitzung</translation>
    </message>
    <message>
        <source>Resume Training</source>
        <translation>Training fortsetzen</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Nothing to resume: open the project the training ran on</source>
        <translation>Nichts fortzusetzen: Öffnen Sie das Projekt, auf dem das Training lief</translation>
    </message>
    <message>
        <source>Text being typed in the Questions dock was not saved yet; here it is to copy back: “%1”.</source>
        <translation>Im Fragen-Dock eingegebener Text war noch nicht gespeichert; hier ist er zum Zurückkopieren: „%1“.</translation>
    </message>
</context>
<context>
    <name>folio::ShortcutEditorDialog</name>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Einstellungen</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts…</source>
        <translation>&amp;Tastenkürzel…</translation>
    </message>
    <message>
        <source>Keyboard shortcuts saved</source>
        <translation>Tastenkürzel gespeichert</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Filter (an action, a menu or a key)</source>
        <translation>Filter (eine Aktion, ein Menü oder eine Taste)</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>&amp;Key:</source>
        <translation>&amp;Taste:</translation>
    </message>
    <message>
        <source>&amp;Clear</source>
        <translation>&amp;Leeren</translation>
    </message>
    <message>
        <source>&amp;Reset</source>
        <translation>&amp;Zurücksetzen</translation>
    </message>
    <message>
        <source>Reset &amp;All</source>
        <translation>&amp;Alle zurücksetzen</translation>
    </message>
    <message>
        <source>Same key as: %1</source>
        <translation>Gleiche Taste wie: %1</translation>
    </message>
    <message>
        <source>%1 shares a key with %2</source>
        <translation>%1 teilt sich eine Taste mit %2</translation>
    </message>
    <message>
        <source>Two actions on one key: change or clear one of them before saving. %1</source>
        <translation>Zwei Aktionen auf einer Taste: Ändern oder leeren Sie eine davon vor dem Speichern. %1</translation>
    </message>
    <message>
        <source>Filter actions</source>
        <translation>Aktionen filtern</translation>
    </message>
    <message>
        <source>Actions and their keys</source>
        <translation>Aktionen und ihre Tasten</translation>
    </message>
</context>
<context>
    <name>folio::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Filter (a key, a place or a word)</source>
        <translation>Filter (eine Taste, ein Ort oder ein Wort)</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <source>What it does</source>
        <translation>Was es tut</translation>
    </message>
    <message>
        <source>Keys in a dock work when that dock has the focus; the page&apos;s keys when the page has it. The menus&apos; keys listed here are the defaults: Settings &gt; Keyboard Shortcuts changes them.</source>
        <translation>Tasten in einem Dock wirken, wenn dieses Dock den Fokus hat; die Tasten der Seite, wenn die Seite ihn hat. Die hier aufgeführten Menütasten sind die Standardwerte: Einstellungen &gt; Tastenkürzel ändert sie.</translation>
    </message>
    <message>
        <source>Filter shortcuts</source>
        <translation>Tastenkürzel filtern</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
</context>
<context>
    <name>folio::StructureTreeModel</name>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>Conf.</source>
        <translation>Konf.</translation>
    </message>
    <message>
        <source>page %1</source>
        <translation>Seite %1</translation>
    </message>
    <message>
        <source>root</source>
        <translation>Dokument</translation>
    </message>
    <message>
        <source>text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>block</source>
        <translation>Block</translation>
    </message>
    <message>
        <source>paragraph</source>
        <translation>Absatz</translation>
    </message>
    <message>
        <source>line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>word</source>
        <translation>Wort</translation>
    </message>
    <message>
        <source>
box %1,%2 %3×%4</source>
        <translation>
Rahmen %1,%2 %3×%4</translation>
    </message>
    <message>
        <source>
confidence %1</source>
        <translation>
Konfidenz %1</translation>
    </message>
</context>
<context>
    <name>folio::TeamController</name>
    <message>
        <source>Someone</source>
        <translation>Jemand</translation>
    </message>
    <message>
        <source>%1 changed this document: showing the stored version</source>
        <translation>%1 hat dieses Dokument geändert: Die gespeicherte Version wird angezeigt</translation>
    </message>
    <message>
        <source>You: %1</source>
        <translation>Sie: %1</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>claimed by</source>
        <translation>beansprucht von</translation>
    </message>
    <message>
        <source>assigned to</source>
        <translation>zugewiesen an</translation>
    </message>
    <message>
        <source>review: %1</source>
        <translation>Prüfung: %1</translation>
    </message>
    <message>
        <source>also here: %1</source>
        <translation>auch hier: %1</translation>
    </message>
    <message>
        <source>NOT SAVED: merge needed (Team &gt; Merge…)</source>
        <translation>NICHT GESPEICHERT: Zusammenführung nötig (Team &gt; Zusammenführen…)</translation>
    </message>
    <message>
        <source>Merged with %1&apos;s version and saved</source>
        <translation>Mit der Version von %1 zusammengeführt und gespeichert</translation>
    </message>
    <message>
        <source>The merge could not be saved</source>
        <translation>Die Zusammenführung konnte nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Your changes are not saved yet: Team &gt; Merge… when you are ready</source>
        <translation>Ihre Änderungen sind noch nicht gespeichert: Team &gt; Zusammenführen…, wenn Sie bereit sind</translation>
    </message>
    <message>
        <source>Signed in as %1 (%2)</source>
        <translation>Angemeldet als %1 (%2)</translation>
    </message>
    <message>
        <source>Signed in as %1 (not a user of this project: single-user rules)</source>
        <translation>Angemeldet als %1 (kein Benutzer dieses Projekts: Einzelbenutzer-Regeln)</translation>
    </message>
    <message>
        <source>No document to claim</source>
        <translation>Kein Dokument zum Übernehmen</translation>
    </message>
    <message>
        <source>You have this document now</source>
        <translation>Sie haben dieses Dokument jetzt</translation>
    </message>
    <message>
        <source>No document open</source>
        <translation>Kein Dokument offen</translation>
    </message>
    <message>
        <source>Review: %1</source>
        <translation>Prüfung: %1</translation>
    </message>
    <message>
        <source>Document history</source>
        <translation>Dokumentverlauf</translation>
    </message>
    <message>
        <source>No history yet</source>
        <translation>Noch kein Verlauf</translation>
    </message>
    <message>
        <source>&amp;Team</source>
        <translation>&amp;Team</translation>
    </message>
    <message>
        <source>Sign In As…</source>
        <translation>Anmelden als…</translation>
    </message>
    <message>
        <source>Sign in as</source>
        <translation>Anmelden als</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>&amp;Claim Document</source>
        <translation>Dokument &amp;übernehmen</translation>
    </message>
    <message>
        <source>S&amp;ubmit for Review</source>
        <translation>Zur &amp;Prüfung einreichen</translation>
    </message>
    <message>
        <source>&amp;Accept Review</source>
        <translation>Prüfung &amp;annehmen</translation>
    </message>
    <message>
        <source>Send &amp;Back…</source>
        <translation>&amp;Zurücksenden…</translation>
    </message>
    <message>
        <source>Send back</source>
        <translation>Zurücksenden</translation>
    </message>
    <message>
        <source>What needs fixing?</source>
        <translation>Was muss korrigiert werden?</translation>
    </message>
    <message>
        <source>Document &amp;History…</source>
        <translation>Dokument&amp;verlauf…</translation>
    </message>
    <message>
        <source>&amp;Merge With Stored Version…</source>
        <translation>Mit gespeicherter Version zusa&amp;mmenführen…</translation>
    </message>
</context>
<context>
    <name>folio::TrainingDialog</name>
    <message>
        <source>Train a model on this project</source>
        <translation>Ein Modell auf diesem Projekt trainieren</translation>
    </message>
    <message>
        <source>Checkpoint folder</source>
        <translation>Checkpoint-Ordner</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Epochen</translation>
    </message>
    <message>
        <source>Folio tagger (default)</source>
        <translation>Folio-Tagger (Standard)</translation>
    </message>
    <message>
        <source>LayoutLMv3-style: 1-D + 2-D biases, scaled</source>
        <translation>LayoutLMv3-Stil: 1-D- + 2-D-Biases, skaliert</translation>
    </message>
    <message>
        <source>LayoutLMv2-style: spatial-aware, unscaled</source>
        <translation>LayoutLMv2-Stil: räumlich, unskaliert</translation>
    </message>
    <message>
        <source>ERNIE-Layout: disentangled 1-D / x / y</source>
        <translation>ERNIE-Layout: entkoppelt 1-D / x / y</translation>
    </message>
    <message>
        <source>Text only</source>
        <translation>Nur Text</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>Architektur</translation>
    </message>
    <message>
        <source>As stored (OCR reading order)</source>
        <translation>Wie gespeichert (OCR-Lesereihenfolge)</translation>
    </message>
    <message>
        <source>Layout order (XY-cut: columns, cells, lines)</source>
        <translation>Layout-Reihenfolge (XY-Schnitt: Spalten, Zellen, Zeilen)</translation>
    </message>
    <message>
        <source>Word order</source>
        <translation>Wortreihenfolge</translation>
    </message>
    <message>
        <source>From scratch (or a pretrained encoder folder from folio-cli pretrain)</source>
        <translation>Von Grund auf (oder ein vortrainierter Encoder-Ordner aus folio-cli pretrain)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Start from: a pretrained encoder or a Hugging Face folder</source>
        <translation>Start bei: einem vortrainierten Encoder oder einem Hugging-Face-Ordner</translation>
    </message>
    <message>
        <source>Other projects or datasets whose labelled pages also train the model; this project&apos;s held-out pages still choose the best epoch</source>
        <translation>Andere Projekte oder Datensätze, deren gelabelte Seiten das Modell ebenfalls trainieren; die zurückgehaltenen Seiten dieses Projekts wählen weiterhin die beste Epoche</translation>
    </message>
    <message>
        <source>Add Project…</source>
        <translation>Projekt hinzufügen…</translation>
    </message>
    <message>
        <source>Add Dataset…</source>
        <translation>Datensatz hinzufügen…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>A FUNSD dataset folder, an XFUND .json file or a SROIE receipts folder</source>
        <translation>Ein FUNSD-Datensatzordner, eine XFUND-.json-Datei oder ein SROIE-Belegordner</translation>
    </message>
    <message>
        <source>Another project</source>
        <translation>Ein anderes Projekt</translation>
    </message>
    <message>
        <source>Folio projects (*.folio)</source>
        <translation>Folio-Projekte (*.folio)</translation>
    </message>
    <message>
        <source>A labelled dataset: FUNSD or SROIE folder, XFUND file</source>
        <translation>Ein gelabelter Datensatz: FUNSD- oder SROIE-Ordner, XFUND-Datei</translation>
    </message>
    <message>
        <source>XFUND files (*.json);;Any folder or file (*)</source>
        <translation>XFUND-Dateien (*.json);;Beliebiger Ordner oder Datei (*)</translation>
    </message>
    <message>
        <source>Also train on</source>
        <translation>Auch trainieren auf</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>Trainieren</translation>
    </message>
    <message>
        <source>Epoch %1/%2, loss %3, dev F1 %4, about %5 s left</source>
        <translation>Epoche %1/%2, Loss %3, Dev-F1 %4, noch etwa %5 s</translation>
    </message>
    <message>
        <source>%1 labelled pages from %2 documents; 15% are held out to choose the best epoch.</source>
        <translation>%1 gelabelte Seiten aus %2 Dokumenten; 15 % werden zurückgehalten, um die beste Epoche zu wählen.</translation>
    </message>
    <message>
        <source>Web fields: train the field extractor…</source>
        <translation>Webfelder: den Feldextraktor trainieren…</translation>
    </message>
    <message>
        <source>Field extractor saved to %1; it is the project&apos;s field extractor now.</source>
        <translation>Feldextraktor in %1 gespeichert; er ist jetzt der Feldextraktor des Projekts.</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Training on %1 pages…</source>
        <translation>Training auf %1 Seiten…</translation>
    </message>
    <message>
        <source>Training on %1 pages of this project and %2 further sources…</source>
        <translation>Training auf %1 Seiten dieses Projekts und %2 weiteren Quellen…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Done in %1 s: best dev F1 %2 at epoch %3. Saved to %4</source>
        <translation>Fertig in %1 s: bestes Dev-F1 %2 in Epoche %3. Gespeichert in %4</translation>
    </message>
    <message>
        <source>Folio&apos;s own tagger (from scratch or a pretrained encoder)</source>
        <translation>Folios eigener Tagger (von Grund auf oder ein vortrainierter Encoder)</translation>
    </message>
    <message>
        <source>A checkpoint in the Hugging Face cache</source>
        <translation>Ein Checkpoint im Hugging-Face-Cache</translation>
    </message>
    <message>
        <source>Start from</source>
        <translation>Start bei</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Cached checkpoint</source>
        <translation>Checkpoint im Cache</translation>
    </message>
    <message>
        <source>%1 labelled pages: %2 are held out for the regression guard, the rest train.</source>
        <translation>%1 gelabelte Seiten: %2 werden für den Regressionsschutz zurückgehalten, der Rest trainiert.</translation>
    </message>
    <message>
        <source>Step %1/%2, epoch %3/%4, loss %5, about %6 s left</source>
        <translation>Schritt %1/%2, Epoche %3/%4, Loss %5, noch etwa %6 s</translation>
    </message>
    <message>
        <source>The project was closed: nothing more can start from this dialog.</source>
        <translation>Das Projekt wurde geschlossen: Aus diesem Dialog kann nichts mehr starten.</translation>
    </message>
    <message>
        <source>choose a checkpoint of the Hugging Face cache</source>
        <translation>wählen Sie einen Checkpoint aus dem Hugging-Face-Cache</translation>
    </message>
    <message>
        <source>choose a Hugging Face token-classification folder to start from</source>
        <translation>wählen Sie einen Hugging-Face-Token-Classification-Ordner als Start</translation>
    </message>
    <message>
        <source>%1: no readable config.json with a model_type</source>
        <translation>%1: keine lesbare config.json mit einem model_type</translation>
    </message>
    <message>
        <source>%1: the folder training starts from; write the new model to another folder</source>
        <translation>%1: der Ordner, von dem das Training startet; schreiben Sie das neue Modell in einen anderen Ordner</translation>
    </message>
    <message>
        <source>labels the checkpoint cannot take: %1</source>
        <translation>Labels, die der Checkpoint nicht aufnehmen kann: %1</translation>
    </message>
    <message>
        <source>Note: &quot;Also train on&quot; applies to Folio&apos;s own tagger; a Hugging Face model trains on this project&apos;s pages.</source>
        <translation>Hinweis: „Auch trainieren auf“ gilt für Folios eigenen Tagger; ein Hugging-Face-Modell trainiert auf den Seiten dieses Projekts.</translation>
    </message>
    <message>
        <source>Fine-tuning %1 on %2 pages; %3 held-out pages will score the old and the new model…</source>
        <translation>%1 wird auf %2 Seiten feinabgestimmt; %3 zurückgehaltene Seiten bewerten das alte und das neue Modell…</translation>
    </message>
    <message>
        <source>Done in %1 s (%2 steps%3). Saved to %4</source>
        <translation>Fertig in %1 s (%2 Schritte%3). Gespeichert in %4</translation>
    </message>
    <message>
        <source>, a new head for the project&apos;s labels</source>
        <translation>, ein neuer Kopf für die Labels des Projekts</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Label</translation>
    </message>
    <message>
        <source>F1 before</source>
        <translation>F1 vorher</translation>
    </message>
    <message>
        <source>F1 after</source>
        <translation>F1 nachher</translation>
    </message>
    <message>
        <source>Held-out entities</source>
        <translation>Zurückgehaltene Entitäten</translation>
    </message>
    <message>
        <source>Use the New Model</source>
        <translation>Das neue Modell verwenden</translation>
    </message>
    <message>
        <source>Keep the Current Model</source>
        <translation>Das aktuelle Modell behalten</translation>
    </message>
    <message>
        <source>F1 before (%1)</source>
        <translation>F1 vorher (%1)</translation>
    </message>
    <message>
        <source>F1 after (%1)</source>
        <translation>F1 nachher (%1)</translation>
    </message>
    <message>
        <source>On the %1 held-out pages the new model is no worse on any label. Use it?</source>
        <translation>Auf den %1 zurückgehaltenen Seiten ist das neue Modell bei keinem Label schlechter. Verwenden?</translation>
    </message>
    <message>
        <source>On the %1 held-out pages the new model is worse on some labels (red). Use it anyway, or keep the current one?</source>
        <translation>Auf den %1 zurückgehaltenen Seiten ist das neue Modell bei einigen Labels schlechter (rot). Trotzdem verwenden oder das aktuelle behalten?</translation>
    </message>
    <message>
        <source>Cannot resume: the interrupted run is not one of Folio&apos;s tagger (%1)</source>
        <translation>Fortsetzen nicht möglich: Der unterbrochene Lauf gehört nicht zu Folios Tagger (%1)</translation>
    </message>
    <message>
        <source>Cannot resume: the project has fewer than 2 labelled pages now</source>
        <translation>Fortsetzen nicht möglich: Das Projekt hat jetzt weniger als 2 gelabelte Seiten</translation>
    </message>
    <message>
        <source>Resuming the interrupted run into %1…</source>
        <translation>Der unterbrochene Lauf nach %1 wird fortgesetzt…</translation>
    </message>
    <message>
        <source>A Hugging Face token classifier folder (LayoutLMv3, LiLT, LayoutLMv2 / LayoutXLM)</source>
        <translation>Ein Hugging-Face-Token-Classifier-Ordner (LayoutLMv3, LiLT, LayoutLMv2 / LayoutXLM)</translation>
    </message>
    <message>
        <source>Cannot resume: the interrupted run is not a Hugging Face fine-tune (%1)</source>
        <translation>Fortsetzen nicht möglich: Der unterbrochene Lauf ist kein Hugging-Face-Fine-Tuning (%1)</translation>
    </message>
    <message>
        <source>Cannot resume: %1, the folder the run started from, is gone</source>
        <translation>Fortsetzen nicht möglich: %1, der Ordner, von dem der Lauf ausging, ist nicht mehr da</translation>
    </message>
    <message>
        <source>Resuming the interrupted fine-tune of %1 into %2…</source>
        <translation>Das unterbrochene Fine-Tuning von %1 nach %2 wird fortgesetzt…</translation>
    </message>
    <message>
        <source>The interrupted fine-tune of %1 saved no epoch: starting it again into %2…</source>
        <translation>Das unterbrochene Fine-Tuning von %1 hat keine Epoche gespeichert: Es beginnt neu nach %2…</translation>
    </message>
    <message>
        <source>No LayoutLMv3 / LiLT / LayoutLMv2 token classifier in the Hugging Face cache</source>
        <translation>Kein LayoutLMv3- / LiLT- / LayoutLMv2-Token-Classifier im Hugging-Face-Cache</translation>
    </message>
    <message>
        <source>A LayoutLMv3, LiLT or LayoutLMv2 / LayoutXLM token-classification folder (config.json, weights, tokenizer)</source>
        <translation>Ein LayoutLMv3-, LiLT- oder LayoutLMv2- / LayoutXLM-Token-Classification-Ordner (config.json, Gewichte, Tokenizer)</translation>
    </message>
    <message>
        <source>%1: model_type &quot;%2&quot; cannot be fine-tuned here (LayoutLMv3, LiLT and LayoutLMv2 / LayoutXLM can)</source>
        <translation>%1: model_type „%2“ kann hier nicht feinabgestimmt werden (LayoutLMv3, LiLT und LayoutLMv2 / LayoutXLM können es)</translation>
    </message>
    <message>
        <source>Start from model</source>
        <translation>Ausgangsmodell</translation>
    </message>
    <message>
        <source>Further training sources</source>
        <translation>Weitere Trainingsquellen</translation>
    </message>
    <message>
        <source>Training log</source>
        <translation>Trainingsprotokoll</translation>
    </message>
</context>
<context>
    <name>folio::WebPage</name>
    <message>
        <source>page</source>
        <translation>Seite</translation>
    </message>
    <message>
        <source>pages</source>
        <translation>Seiten</translation>
    </message>
    <message>
        <source>frame</source>
        <translation>Frame</translation>
    </message>
    <message>
        <source>frames</source>
        <translation>Frames</translation>
    </message>
    <message>
        <source>style sheet</source>
        <translation>Stylesheet</translation>
    </message>
    <message>
        <source>style sheets</source>
        <translation>Stylesheets</translation>
    </message>
    <message>
        <source>script</source>
        <translation>Skript</translation>
    </message>
    <message>
        <source>scripts</source>
        <translation>Skripte</translation>
    </message>
    <message>
        <source>image</source>
        <translation>Bild</translation>
    </message>
    <message>
        <source>images</source>
        <translation>Bilder</translation>
    </message>
    <message>
        <source>font</source>
        <translation>Schrift</translation>
    </message>
    <message>
        <source>fonts</source>
        <translation>Schriften</translation>
    </message>
    <message>
        <source>media file</source>
        <translation>Mediendatei</translation>
    </message>
    <message>
        <source>media files</source>
        <translation>Mediendateien</translation>
    </message>
    <message>
        <source>script fetch</source>
        <translation>Skriptabruf</translation>
    </message>
    <message>
        <source>script fetches</source>
        <translation>Skriptabrufe</translation>
    </message>
    <message>
        <source>tracking ping</source>
        <translation>Tracking-Ping</translation>
    </message>
    <message>
        <source>tracking pings</source>
        <translation>Tracking-Pings</translation>
    </message>
    <message>
        <source>prefetch</source>
        <translation>Prefetch</translation>
    </message>
    <message>
        <source>prefetches</source>
        <translation>Prefetches</translation>
    </message>
    <message>
        <source>worker</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>other request</source>
        <translation>andere Anfrage</translation>
    </message>
    <message>
        <source>other requests</source>
        <translation>andere Anfragen</translation>
    </message>
</context>
<context>
    <name>folio::WebPagePanel</name>
    <message>
        <source>Run page scripts</source>
        <translation>Seitenskripte ausführen</translation>
    </message>
    <message>
        <source>Let this page run its own JavaScript (network access stays blocked)</source>
        <translation>Diese Seite ihr eigenes JavaScript ausführen lassen (der Netzwerkzugriff bleibt blockiert)</translation>
    </message>
    <message>
        <source>Not a web page</source>
        <translation>Keine Webseite</translation>
    </message>
    <message>
        <source>Loading %1 offline…</source>
        <translation>%1 wird offline geladen…</translation>
    </message>
    <message>
        <source>Could not render %1</source>
        <translation>%1 konnte nicht dargestellt werden</translation>
    </message>
    <message>
        <source>The page view and the node boxes are missing; the text, the DOM tree and the fields are read from the project. Put the file back where it was, or open it again from its new place.</source>
        <translation>Die Seitenansicht und die Knotenrahmen fehlen; Text, DOM-Baum und Felder werden aus dem Projekt gelesen. Legen Sie die Datei an ihren alten Ort zurück oder öffnen Sie sie erneut von ihrem neuen Ort.</translation>
    </message>
    <message>
        <source>Requests blocked for %1</source>
        <translation>Blockierte Anfragen für %1</translation>
    </message>
    <message>
        <source>Folio shows saved pages offline and blocked these requests, so nothing was fetched from the web. To see the page with its own styles and images, save it from the browser as &quot;Web Page, complete&quot; and open that.</source>
        <translation>Folio zeigt gespeicherte Seiten offline und hat diese Anfragen blockiert, also wurde nichts aus dem Web geladen. Um die Seite mit ihren eigenen Stilen und Bildern zu sehen, speichern Sie sie im Browser als „Webseite, komplett“ und öffnen Sie diese.</translation>
    </message>
    <message>
        <source>its layout could not be read (%1)</source>
        <translation>ihr Layout konnte nicht gelesen werden (%1)</translation>
    </message>
    <message>
        <source>Blocked requests</source>
        <translation>Blockierte Anfragen</translation>
    </message>
</context>
<context>
    <name>folio::WhatIfPanel</name>
    <message>
        <source>What If</source>
        <translation>Was wäre, wenn</translation>
    </message>
    <message>
        <source>Edit boxes</source>
        <translation>Boxen bearbeiten</translation>
    </message>
    <message>
        <source>Drag a word&apos;s box to move it, drag its bottom-right corner to resize it, press Delete to delete the selected word. The model re-runs on an edited copy; the document itself is not changed.</source>
        <translation>Ziehen Sie die Box eines Worts, um sie zu verschieben, ziehen Sie ihre rechte untere Ecke, um ihre Größe zu ändern, drücken Sie Entf, um das ausgewählte Wort zu löschen. Das Modell läuft erneut auf einer bearbeiteten Kopie; das Dokument selbst bleibt unverändert.</translation>
    </message>
    <message>
        <source>Undo Last Edit</source>
        <translation>Letzte Änderung rückgängig</translation>
    </message>
    <message>
        <source>Back to the Document</source>
        <translation>Zurück zum Dokument</translation>
    </message>
    <message>
        <source>Word</source>
        <translation>Wort</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
    <message>
        <source>What if: open a scanned page or a form first.</source>
        <translation>Was wäre, wenn: Öffnen Sie zuerst eine gescannte Seite oder ein Formular.</translation>
    </message>
    <message>
        <source>What if: the boxes of a web page cannot be dragged; open a scanned page or a form.</source>
        <translation>Was wäre, wenn: Die Boxen einer Webseite lassen sich nicht ziehen; öffnen Sie eine gescannte Seite oder ein Formular.</translation>
    </message>
    <message>
        <source>What if: choose a model first (Model &gt; Choose Model).</source>
        <translation>Was wäre, wenn: Wählen Sie zuerst ein Modell (Modell &gt; Modell wählen).</translation>
    </message>
    <message>
        <source>What if: there is no word %1 on this document.</source>
        <translation>Was wäre, wenn: Dieses Dokument hat kein Wort %1.</translation>
    </message>
    <message>
        <source>What if: page %1 has no size, so its boxes cannot be moved.</source>
        <translation>Was wäre, wenn: Seite %1 hat keine Größe, ihre Boxen lassen sich daher nicht verschieben.</translation>
    </message>
    <message>
        <source>What if: “%1” was dropped off the page (the page is %2 × %3): drag it onto the page. Nothing changed.</source>
        <translation>Was wäre, wenn: „%1“ wurde außerhalb der Seite abgelegt (die Seite misst %2 × %3): Ziehen Sie es auf die Seite. Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>“%1” reached past the page&apos;s edge: its box was clamped onto the page.</source>
        <translation>„%1“ ragte über den Seitenrand hinaus: Seine Box wurde auf die Seite zurückgesetzt.</translation>
    </message>
    <message>
        <source>What if: word %1 is already deleted.</source>
        <translation>Was wäre, wenn: Wort %1 ist bereits gelöscht.</translation>
    </message>
    <message>
        <source>What if: deleting “%1” would leave page %2 without words, and the model would have nothing to read. Nothing changed.</source>
        <translation>Was wäre, wenn: Das Löschen von „%1“ ließe Seite %2 ohne Wörter, und das Modell hätte nichts zu lesen. Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>What if: choose a model first (Model &gt; Choose Model). Nothing changed.</source>
        <translation>Was wäre, wenn: Wählen Sie zuerst ein Modell (Modell &gt; Modell wählen). Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>What if refused: %1. Nothing changed.</source>
        <translation>Was wäre, wenn – abgelehnt: %1. Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>What if: the model could not run: %1</source>
        <translation>Was wäre, wenn: Das Modell konnte nicht laufen: %1</translation>
    </message>
    <message>
        <source>(deleted)</source>
        <translation>(gelöscht)</translation>
    </message>
    <message>
        <source>Turn on “Edit boxes”, then drag, resize or delete a word box: the model re-runs on an edited copy.</source>
        <translation>Schalten Sie „Boxen bearbeiten“ ein und verschieben, vergrößern oder löschen Sie dann eine Wortbox: Das Modell läuft erneut auf einer bearbeiteten Kopie.</translation>
    </message>
    <message>
        <source>Running the model on the document…</source>
        <translation>Das Modell läuft auf dem Dokument …</translation>
    </message>
    <message>
        <source>Drag, resize or delete a word box.</source>
        <translation>Verschieben, vergrößern oder löschen Sie eine Wortbox.</translation>
    </message>
    <message numerus="yes">
        <source>%n edit(s); running the model on the edited copy…</source>
        <translation>
            <numerusform>%n Änderung; das Modell läuft auf der bearbeiteten Kopie …</numerusform>
            <numerusform>%n Änderungen; das Modell läuft auf der bearbeiteten Kopie …</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n edit(s): %1 of %2 words changed their label.</source>
        <translation>
            <numerusform>%n Änderung: %1 von %2 Wörtern haben ihr Label gewechselt.</numerusform>
            <numerusform>%n Änderungen: %1 von %2 Wörtern haben ihr Label gewechselt.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n edit(s).</source>
        <translation>
            <numerusform>%n Änderung.</numerusform>
            <numerusform>%n Änderungen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Words whose label changed</source>
        <translation>Wörter, deren Label sich änderte</translation>
    </message>
</context>
<context>
    <name>folio::WhyLabelPanel</name>
    <message>
        <source>Why This Label</source>
        <translation>Warum dieses Label</translation>
    </message>
    <message>
        <source>Integrated-gradient steps:</source>
        <translation>Schritte der integrierten Gradienten:</translation>
    </message>
    <message>
        <source>Steps of the midpoint rule from the all-zero input embedding (0: none). Each step is one forward and one backward pass.</source>
        <translation>Schritte der Mittelpunktregel ab der Eingabe-Einbettung aus lauter Nullen (0: keine). Jeder Schritt ist ein Vorwärts- und ein Rückwärtsdurchlauf.</translation>
    </message>
    <message>
        <source>On the page:</source>
        <translation>Auf der Seite:</translation>
    </message>
    <message>
        <source>Integrated gradients</source>
        <translation>Integrierte Gradienten</translation>
    </message>
    <message>
        <source>Gradient × input</source>
        <translation>Gradient × Eingabe</translation>
    </message>
    <message>
        <source>Attention rollout</source>
        <translation>Attention-Rollout</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Word</source>
        <translation>Wort</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Label</translation>
    </message>
    <message>
        <source>Rollout</source>
        <translation>Rollout</translation>
    </message>
    <message>
        <source>IG</source>
        <translation>IG</translation>
    </message>
    <message>
        <source>IG (box)</source>
        <translation>IG (Box)</translation>
    </message>
    <message>
        <source>IG (text)</source>
        <translation>IG (Text)</translation>
    </message>
    <message>
        <source>Why this label: open a scanned page or a form first.</source>
        <translation>Warum dieses Label: Öffnen Sie zuerst eine gescannte Seite oder ein Formular.</translation>
    </message>
    <message>
        <source>Why this label: choose a model first (Model &gt; Choose Model).</source>
        <translation>Warum dieses Label: Wählen Sie zuerst ein Modell (Modell &gt; Modell wählen).</translation>
    </message>
    <message>
        <source>Why this label: there is no word %1 on this document.</source>
        <translation>Warum dieses Label: Dieses Dokument hat kein Wort %1.</translation>
    </message>
    <message>
        <source>Why this label: word %1 is blank; the model does not read it.</source>
        <translation>Warum dieses Label: Wort %1 ist leer; das Modell liest es nicht.</translation>
    </message>
    <message>
        <source>Cancelled: the attributions shown stop at the stage that had finished.</source>
        <translation>Abgebrochen: Die angezeigten Attributionen reichen bis zur Stufe, die fertig war.</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Why this label: the model could not explain word %1: %2</source>
        <translation>Warum dieses Label: Das Modell konnte Wort %1 nicht erklären: %2</translation>
    </message>
    <message>
        <source>Rollout: attention averaged over the %1 heads, plus the identity, rows renormalised, multiplied over %2 layers (%3 words in the window).</source>
        <translation>Rollout: Attention gemittelt über die %1 Köpfe, plus Identität, Zeilen neu normiert, multipliziert über %2 Schichten (%3 Wörter im Fenster).</translation>
    </message>
    <message>
        <source>Gradient × input: ⟨∂ logit / ∂ x, x⟩ at each word&apos;s input embedding.</source>
        <translation>Gradient × Eingabe: ⟨∂ Logit / ∂ x, x⟩ an der Eingabe-Einbettung jedes Worts.</translation>
    </message>
    <message>
        <source>Integrated gradients: %1 midpoint steps from the all-zero embedding (α = u^%2); their sum %3 against logit − baseline logit %4.</source>
        <translation>Integrierte Gradienten: %1 Mittelpunktschritte ab der Einbettung aus lauter Nullen (α = u^%2); ihre Summe %3 gegenüber Logit − Basis-Logit %4.</translation>
    </message>
    <message>
        <source>Click a word on the page to see why the model gave it its label.</source>
        <translation>Klicken Sie auf ein Wort der Seite, um zu sehen, warum das Modell ihm sein Label gab.</translation>
    </message>
    <message>
        <source>Word %1 “%2”: %3 (logit %4).</source>
        <translation>Wort %1 „%2“: %3 (Logit %4).</translation>
    </message>
    <message>
        <source>Word %1 “%2”.</source>
        <translation>Wort %1 „%2“.</translation>
    </message>
    <message>
        <source>Computing the attention rollout…</source>
        <translation>Attention-Rollout wird berechnet …</translation>
    </message>
    <message>
        <source>Computing gradient × input…</source>
        <translation>Gradient × Eingabe wird berechnet …</translation>
    </message>
    <message>
        <source>Computing integrated gradients (%1 steps)…</source>
        <translation>Integrierte Gradienten werden berechnet (%1 Schritte) …</translation>
    </message>
    <message>
        <source>Integrated-gradient steps</source>
        <translation>Schritte der integrierten Gradienten</translation>
    </message>
    <message>
        <source>Attributions over the words</source>
        <translation>Attributionen über die Wörter</translation>
    </message>
</context>
</TS>
