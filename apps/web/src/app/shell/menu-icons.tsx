import type { SvgIconComponent } from "@mui/icons-material";
import AccountBalance from "@mui/icons-material/AccountBalance";
import AccountTree from "@mui/icons-material/AccountTree";
import Announcement from "@mui/icons-material/Announcement";
import AssessmentOutlined from "@mui/icons-material/AssessmentOutlined";
import InsightsOutlined from "@mui/icons-material/InsightsOutlined";
import Block from "@mui/icons-material/Block";
import Campaign from "@mui/icons-material/Campaign";
import ChecklistRtl from "@mui/icons-material/ChecklistRtl";
import Code from "@mui/icons-material/Code";
import ContactPhoneOutlined from "@mui/icons-material/ContactPhoneOutlined";
import DashboardOutlined from "@mui/icons-material/DashboardOutlined";
import DescriptionOutlined from "@mui/icons-material/DescriptionOutlined";
import DeviceHub from "@mui/icons-material/DeviceHub";
import EventAvailable from "@mui/icons-material/EventAvailable";
import ForwardToInbox from "@mui/icons-material/ForwardToInbox";
import MarkEmailRead from "@mui/icons-material/MarkEmailRead";
import FlashOn from "@mui/icons-material/FlashOn";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import HelpOutline from "@mui/icons-material/HelpOutline";
import LocalAtm from "@mui/icons-material/LocalAtm";
import ManageSearch from "@mui/icons-material/ManageSearch";
import LocalOffer from "@mui/icons-material/LocalOffer";
import Paid from "@mui/icons-material/Paid";
import PersonOff from "@mui/icons-material/PersonOff";
import PeopleAlt from "@mui/icons-material/PeopleAlt";
import PhoneAndroid from "@mui/icons-material/PhoneAndroid";
import Psychology from "@mui/icons-material/Psychology";
import SettingsOutlined from "@mui/icons-material/SettingsOutlined";
import Sms from "@mui/icons-material/Sms";
import SyncAlt from "@mui/icons-material/SyncAlt";
import ViewKanban from "@mui/icons-material/ViewKanban";
import WhatsApp from "@mui/icons-material/WhatsApp";

/** One icon per menu item key of MENU_ITEMS (@atende/shared). */
export const MENU_ICONS: Record<string, SvgIconComponent> = {
  dashboard: DashboardOutlined,
  reports: AssessmentOutlined,
  bi: InsightsOutlined,
  tickets: WhatsApp,
  quickMessages: FlashOn,
  kanban: ViewKanban,
  contacts: ContactPhoneOutlined,
  schedules: EventAvailable,
  chats: ForumOutlined,
  todolist: ChecklistRtl,
  helps: HelpOutline,
  connections: SyncAlt,
  subscription: Paid,
  campaigns: Campaign,
  templates: DescriptionOutlined,
  numbers: PhoneAndroid,
  costCenters: AccountBalance,
  emailTool: ForwardToInbox,
  sentEmails: MarkEmailRead,
  smsSandbox: Sms,
  optOuts: PersonOff,
  keywords: Block,
  users: PeopleAlt,
  queues: AccountTree,
  tags: LocalOffer,
  announcements: Announcement,
  prompts: Psychology,
  queueIntegration: DeviceHub,
  messagesApi: Code,
  financeiro: LocalAtm,
  auditLog: ManageSearch,
  settings: SettingsOutlined,
};
