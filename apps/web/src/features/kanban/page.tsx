import { ComingSoon } from "../../components/coming-soon";

export default function KanbanPage() {
  return <ComingSoon titleKey="menu.kanban" />;
}
