; Reviewer: per-user Windows installer (Inno Setup 6).
;
;   python packaging\build.py                      (makes dist\Reviewer\ and self-tests it)
;   iscc /DAppVersion=0.1.0 packaging\windows\reviewer.iss
;   -> dist\installers\Reviewer-0.1.0-setup.exe
;
; Per-user: no administrator rights, installs to %LOCALAPPDATA%\Programs\Reviewer, Start menu
; entry in the user's own Programs folder. ".docx" gains "Open with > Reviewer" through
; OpenWithProgids; the default program for .docx (Word) is left alone.
; Uninstalling removes only what this installer put in {app}: settings, transcripts, recovery
; files and logs live under %LOCALAPPDATA%\Reviewer (platformdirs) and are kept.
;
; Silent install for deployment tools (run in the user's context, not as SYSTEM):
;   Reviewer-0.1.0-setup.exe /VERYSILENT /SUPPRESSMSGBOXES /NORESTART
; A firm-wide model endpoint is a site settings file, deployed separately (packaging\README.md).
;
; Signing (placeholder): define a sign tool named "firmsign" in the Inno Setup IDE or pass
;   iscc /Sfirmsign="signtool sign /fd sha256 /tr http://timestamp.example.com /td sha256 /n $qFIRM CODE SIGNING NAME$q $f" ...
; and uncomment SignTool below; sign dist\Reviewer\*.exe with the same certificate before building.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#ifndef DistDir
  #define DistDir "..\..\dist\Reviewer"
#endif
#define AppName "Reviewer"
#define AppExe "reviewer.exe"
#define ProgId "Reviewer.docx"

[Setup]
; The AppId identifies this product for upgrades and uninstall: never change it between versions.
AppId={{FFD7C2AF-4B20-4D30-9668-D2DD5B8D8544}
AppName={#AppName}
AppVersion={#AppVersion}
AppPublisher=FIRM NAME (placeholder)
DefaultDirName={localappdata}\Programs\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
DisableDirPage=auto
PrivilegesRequired=lowest
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\..\dist\installers
OutputBaseFilename={#AppName}-{#AppVersion}-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
ChangesAssociations=yes
CloseApplications=yes
; SignTool=firmsign

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
; The whole PyInstaller folder: reviewer.exe (windowed), reviewer-cli.exe (console: --self-test,
; the reading commands) and _internal\.
Source: "{#DistDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Registry]
; The ProgID that "Open with" lists, in the user's own classes (HKCU\Software\Classes).
Root: HKCU; Subkey: "Software\Classes\{#ProgId}"; ValueType: string; ValueName: ""; ValueData: "Word document (Reviewer)"; Flags: uninsdeletekey
Root: HKCU; Subkey: "Software\Classes\{#ProgId}\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\{#AppExe},0"
Root: HKCU; Subkey: "Software\Classes\{#ProgId}\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""
; .docx lists the ProgID among its "Open with" choices; the key's default value (Word) is never written.
Root: HKCU; Subkey: "Software\Classes\.docx\OpenWithProgids"; ValueType: none; ValueName: "{#ProgId}"; Flags: uninsdeletevalue
; The application's own entry: its name in "Open with" and the types it opens.
Root: HKCU; Subkey: "Software\Classes\Applications\{#AppExe}"; ValueType: string; ValueName: "FriendlyAppName"; ValueData: "{#AppName}"; Flags: uninsdeletekey
Root: HKCU; Subkey: "Software\Classes\Applications\{#AppExe}\SupportedTypes"; ValueType: string; ValueName: ".docx"; ValueData: ""
Root: HKCU; Subkey: "Software\Classes\Applications\{#AppExe}\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

; No [UninstallDelete] section on purpose: the user's data folder is not the installer's to remove.
